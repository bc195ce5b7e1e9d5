/**
 * Operator actions on a namespace: drain and undrain shards, list drains,
 * force a reset. Each waits until this instance's cache shows its own write,
 * so a caller reads what it wrote from the same instance.
 *
 * @module
 */
import { type Clock, systemClock } from "../core/clock.ts";
import { InvalidArgumentError } from "../core/errors.ts";
import { validateShardKey } from "../heartbeat/validate_heartbeat.ts";
import type { NamespaceRuntime } from "../namespace/namespace_runtime.ts";
import { assertShardExists, compareShardKeys } from "../routing/mod.ts";
import type { Store } from "../store/store.ts";
import type { HistoryLog } from "./history_log.ts";
import { applyOperatorWrite } from "./operator_writes.ts";

/** Options of an operator write. */
export interface WriteOptions {
  /** The caller's request id: a write with an id already applied is not applied again. */
  readonly requestId?: string | undefined;
}

/** Most shard keys in one drain or undrain call. */
export const MAX_KEYS_PER_CALL = 10_000;

/** Drains, undrains and resets. */
export class NamespaceOperations {
  #store: Store;
  #lookup: (namespace: string) => NamespaceRuntime;
  #clock: Clock;
  #history: HistoryLog | undefined;

  /** Acts on `store`, resolving namespaces with `lookup` (which throws for unknown ones). */
  constructor(
    store: Store,
    lookup: (namespace: string) => NamespaceRuntime,
    clock: Clock = systemClock,
    history?: HistoryLog,
  ) {
    this.#store = store;
    this.#lookup = lookup;
    this.#clock = clock;
    this.#history = history;
  }

  /** Drains shards; returns the keys drained. */
  drainShards(
    namespace: string,
    keys: readonly string[],
    options: WriteOptions = {},
  ): Promise<string[]> {
    return this.#setDrained(namespace, keys, true, options);
  }

  /** Undrains shards; returns the keys that were drained and are not any more. */
  undrainShards(
    namespace: string,
    keys: readonly string[],
    options: WriteOptions = {},
  ): Promise<string[]> {
    return this.#setDrained(namespace, keys, false, options);
  }

  /** The drained shards, sorted. */
  drainedShards(namespace: string): string[] {
    return [...this.#lookup(namespace).view.drained()].sort(compareShardKeys);
  }

  /** The drained shards the leader quarantined (poison shards), sorted. */
  quarantinedShards(namespace: string): string[] {
    const view = this.#lookup(namespace).view;
    return [...view.drainReasons].filter(([, reason]) => reason === "quarantined")
      .map(([key]) => key).sort(compareShardKeys);
  }

  /** Deletes the namespace's stored state; returns how many keys were removed. */
  async forceReset(namespace: string, options: WriteOptions = {}): Promise<number> {
    const runtime = this.#lookup(namespace);
    const outcome = await applyOperatorWrite(this.#store, this.#clock, runtime, {
      type: "reset",
    }, options);
    return outcome.applied ? outcome.deleted : 0;
  }

  async #setDrained(
    namespace: string,
    keys: readonly string[],
    drained: boolean,
    options: WriteOptions,
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
    // Poison shards the leader quarantined: an undrain releases them (said in the history).
    const released = drained
      ? []
      : changed.filter((key) => runtime.view.drainReasonOf(key) === "quarantined");
    const outcome = await applyOperatorWrite(this.#store, this.#clock, runtime, {
      type: "shard_drains",
      shardKeys: changed,
      drained,
    }, options);
    // A repeated request id was applied before: report what the state shows now.
    if (!outcome.applied) {
      return changed.filter((key) => runtime.view.isDrained(key) === drained);
    }
    const shown = changed.length > 20
      ? `${changed.slice(0, 20).join(", ")}, ...`
      : changed.join(", ");
    void this.#history?.record(namespace, {
      type: drained ? "shards_drained" : "shards_undrained",
      shardKeys: changed.slice(0, 100),
      text: `${changed.length} ${changed.length === 1 ? "shard" : "shards"} ${
        drained ? "drained" : "undrained"
      }: ${shown}${
        released.length > 0
          ? ` (released from quarantine: ${released.slice(0, 20).join(", ")})`
          : ""
      }`,
      ...(released.length > 0 ? { reason: "quarantine_released" } : {}),
    });
    return changed;
  }
}
