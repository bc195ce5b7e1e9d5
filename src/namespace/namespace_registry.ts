/**
 * The namespaces one instance serves, by name. Each is a
 * {@linkcode NamespaceRuntime}; asking for an unknown one is a
 * `NamespaceNotFoundError`.
 *
 * @module
 */
import { NamespaceNotFoundError } from "../core/errors.ts";
import type { NamespaceRuntime } from "./namespace_runtime.ts";
import { VersionSignal } from "../streams/version_signal.ts";

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
 * await registry.waitUntil(() => !registry.has("nope"));
 * ```
 */
export class NamespaceRegistry {
  readonly #runtimes = new Map<string, NamespaceRuntime>();
  /** Bumped by every add, replace and remove. */
  readonly #changed = new VersionSignal();

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
    this.#changed.bump();
  }

  /** Adds a runtime, or puts it in place of the one of the same name. */
  replace(runtime: NamespaceRuntime): void {
    this.#runtimes.set(runtime.name, runtime);
    this.#changed.bump();
  }

  /** Removes `name`'s runtime and returns it (undefined when there was none). */
  remove(name: string): NamespaceRuntime | undefined {
    const runtime = this.#runtimes.get(name);
    if (this.#runtimes.delete(name)) this.#changed.bump();
    return runtime;
  }

  /**
   * Resolves once `condition` holds: at once, or after the add, replace or
   * remove that made it hold. Rejects with the signal's reason when `signal`
   * aborts first.
   */
  async waitUntil(condition: () => boolean, signal?: AbortSignal): Promise<void> {
    let seen = this.#changed.version;
    while (!condition()) seen = await this.#changed.wait(seen, signal);
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
