/**
 * The namespaces one instance serves, by name. Each is a
 * {@linkcode NamespaceRuntime}; asking for an unknown one is a
 * `NamespaceNotFoundError`.
 *
 * @module
 */
import { NamespaceNotFoundError } from "../core/errors.ts";
import type { NamespaceRuntime } from "../namespace/namespace_runtime.ts";

/**
 * Namespace runtimes by name.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { NamespaceRegistry } from "./namespace_registry.ts";
 *
 * const registry = new NamespaceRegistry();
 * assert.throws(() => registry.get("nope"), /Namespace "nope" not found/);
 * assert.deepEqual(registry.names(), []);
 * ```
 */
export class NamespaceRegistry {
  readonly #runtimes = new Map<string, NamespaceRuntime>();

  /** The runtime of `name`; throws `NamespaceNotFoundError` when there is none. */
  get(name: string): NamespaceRuntime {
    const runtime = this.#runtimes.get(name);
    if (!runtime) throw new NamespaceNotFoundError(name);
    return runtime;
  }

  /** True when `name` is served. */
  has(name: string): boolean {
    return this.#runtimes.has(name);
  }

  /** Adds a runtime; a name may be registered once. */
  add(runtime: NamespaceRuntime): void {
    if (this.#runtimes.has(runtime.name)) {
      throw new TypeError(`Namespace ${JSON.stringify(runtime.name)} is registered already`);
    }
    this.#runtimes.set(runtime.name, runtime);
  }

  /** Adds a runtime, or puts it in place of the one of the same name. */
  replace(runtime: NamespaceRuntime): void {
    this.#runtimes.set(runtime.name, runtime);
  }

  /** Removes `name`'s runtime and returns it (undefined when there was none). */
  remove(name: string): NamespaceRuntime | undefined {
    const runtime = this.#runtimes.get(name);
    this.#runtimes.delete(name);
    return runtime;
  }

  /** Every runtime, in the order added. */
  all(): NamespaceRuntime[] {
    return [...this.#runtimes.values()];
  }

  /** Every name, sorted. */
  names(): string[] {
    return [...this.#runtimes.keys()].sort();
  }
}
