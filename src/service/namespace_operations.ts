/**
 * Operator actions on a namespace: drain and undrain shards, list drains,
 * force a reset. Each waits until this instance's cache shows its own write,
 * so a caller reads what it wrote from the same instance.
 *
 * @module
 */
import { InvalidArgumentError } from "../core/errors.ts";
import { validateShardKey } from "../heartbeat/validate_heartbeat.ts";
import type { NamespaceRuntime } from "../namespace/namespace_runtime.ts";
import { assertShardExists, compareShardKeys } from "../routing/mod.ts";
import type { Store } from "../store/store.ts";

/** Most shard keys in one drain or undrain call. */
export const MAX_KEYS_PER_CALL = 10_000;

/** Drains, undrains and resets. */
export class NamespaceOperations {
  #store: Store;
  #lookup: (namespace: string) => NamespaceRuntime;

  /** Acts on `store`, resolving namespaces with `lookup` (which throws for unknown ones). */
  constructor(store: Store, lookup: (namespace: string) => NamespaceRuntime) {
    this.#store = store;
    this.#lookup = lookup;
  }

  /** Drains shards; returns the keys drained. */
  drainShards(namespace: string, keys: readonly string[]): Promise<string[]> {
    return this.#setDrained(namespace, keys, true);
  }

  /** Undrains shards; returns the keys that were drained and are not any more. */
  undrainShards(namespace: string, keys: readonly string[]): Promise<string[]> {
    return this.#setDrained(namespace, keys, false);
  }

  /** The drained shards, sorted. */
  drainedShards(namespace: string): string[] {
    return [...this.#lookup(namespace).view.drained()].sort(compareShardKeys);
  }

  /** Deletes the namespace's stored state; returns how many keys were removed. */
  async forceReset(namespace: string): Promise<number> {
    this.#lookup(namespace);
    return await this.#store.resetNamespace(namespace);
  }

  async #setDrained(
    namespace: string,
    keys: readonly string[],
    drained: boolean,
  ): Promise<string[]> {
    const runtime = this.#lookup(namespace);
    if (keys.length === 0) {
      throw new InvalidArgumentError("shard_keys", "must name at least one shard");
    }
    if (keys.length > MAX_KEYS_PER_CALL) {
      throw new InvalidArgumentError(
        "shard_keys",
        `has ${keys.length} keys; at most ${MAX_KEYS_PER_CALL} per call`,
      );
    }
    for (const [i, key] of keys.entries()) {
      validateShardKey(key, `shard_keys[${i}]`);
      assertShardExists(runtime, key);
    }
    const unique = [...new Set(keys)];
    // An undrain reports only the shards it changed: a key that was never
    // drained is left out, so the caller is not told it was undrained.
    const changed = drained ? unique : unique.filter((key) => runtime.view.isDrained(key));
    if (changed.length === 0) return [];
    const revision = await this.#store.setDrained(namespace, changed, drained);
    await runtime.cache.waitForRevision(revision);
    return changed;
  }
}
