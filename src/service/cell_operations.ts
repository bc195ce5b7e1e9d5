/**
 * Operator actions of placement: moving tenants of a cells namespace to
 * another cell, and measuring any namespace's blast radius.
 *
 * @module
 */
import type { Store } from "../store/store.ts";
import { type Clock, timeoutSignal } from "../core/clock.ts";
import {
  ExecutorNotFoundError,
  InvalidArgumentError,
  NotLeaderError,
  PreconditionError,
  ShardDrainedError,
  ShardNotFoundError,
  StoreUnavailableError,
} from "../core/errors.ts";
import { validateExecutorId, validateShardKey } from "../heartbeat/validate_heartbeat.ts";
import type { NamespaceRuntime } from "../namespace/namespace_runtime.ts";
import { fixedShardKeys } from "../plan/mod.ts";
import { type BlastRadius, blastRadius } from "../placement/blast_radius.ts";
import { measureOverlap } from "../placement/overlap.ts";
import { combinations } from "../placement/combinations.ts";
import { MAX_KEYS_PER_CALL } from "./namespace_operations.ts";

/** How long a move waits for the leader to commit it. */
export const MOVE_TIMEOUT_MS = 10_000;

/** What a move did. */
export interface MoveResult {
  /** Tenants that moved, in request order without repeats. */
  readonly moved: readonly string[];
  /** Tenants that were on the target cell already. */
  readonly unchanged: readonly string[];
  /** With `dryRun`: the tenants that would move, from their cell to the target. */
  readonly planned: readonly {
    readonly shardKey: string;
    readonly from: string;
    readonly to: string;
  }[];
}

/** A namespace's blast radius, with its name. */
export interface BlastRadiusView extends BlastRadius {
  /** Namespace measured. */
  readonly namespace: string;
  /** Replicated namespaces: overlap of the live owner sets and how many sets are possible. */
  readonly overlap?: {
    /** Most live owners two shards share. */
    readonly maxOverlap: number;
    /** Shuffle: shards sharing more than the configured `maxOverlap` with another. */
    readonly shardsOverBound: number;
    /** C(live executors, replicas). */
    readonly combinations: bigint;
  };
}

/** What {@linkcode CellOperations} needs from its instance. */
export interface CellOperationsHost {
  /** The namespace's runtime; throws `NamespaceNotFoundError` for an unknown one. */
  readonly lookup: (namespace: string) => NamespaceRuntime;
  /** Time source (liveness is judged on its monotonic clock). */
  readonly clock: Clock;
  /** Where request ids of moves are recorded. @default {none: ids are ignored} */
  readonly store?: Store;
}

/** Tenant moves and blast-radius reports. */
export class CellOperations {
  #host: CellOperationsHost;

  /** Acts through `host`. */
  constructor(host: CellOperationsHost) {
    this.#host = host;
  }

  /**
   * Moves tenants of a cells namespace to cell `to`. Refuses (naming the
   * reason) a namespace without `mode: cells`, an unplaced or drained tenant,
   * a tenant pinned to another cell, and a target cell that is unknown, not
   * ACTIVE, stale or drained. Only the leader commits moves: another instance
   * answers `NotLeaderError` naming the leader. Resolves once this instance's
   * cache shows every tenant on `to`.
   */
  async moveShards(
    namespace: string,
    keys: readonly string[],
    to: string,
    signal?: AbortSignal,
    options: { readonly dryRun?: boolean; readonly requestId?: string | undefined } = {},
  ): Promise<MoveResult> {
    const runtime = this.#host.lookup(namespace);
    const { placement } = runtime.policy;
    if (placement.kind !== "cells") {
      throw new PreconditionError(
        namespace,
        `Namespace ${
          JSON.stringify(namespace)
        } is not a cells namespace (mode: cells); its shards are placed by the load balancer`,
      );
    }
    if (keys.length === 0) {
      throw new InvalidArgumentError("shard_keys", "must name at least one shard");
    }
    if (keys.length > MAX_KEYS_PER_CALL) {
      throw new InvalidArgumentError(
        "shard_keys",
        `has ${keys.length} keys; at most ${MAX_KEYS_PER_CALL} per call`,
      );
    }
    validateExecutorId(to, "to_executor_id");
    const { cache } = runtime;
    const state = cache.state;
    const pins = placement.pins;
    const unique = [...new Set(keys)];
    const dedicated = [...pins.values()].includes(to);
    for (const [i, key] of unique.entries()) {
      validateShardKey(key, `shard_keys[${i}]`);
      if (state.isDrained(key)) throw new ShardDrainedError(namespace, key);
      if (state.ownerOf(key) === undefined) throw new ShardNotFoundError(namespace, key);
      const pin = pins.get(key);
      if (pin !== undefined && pin !== to) {
        throw new PreconditionError(
          namespace,
          `Tenant ${JSON.stringify(key)} is pinned to cell ${
            JSON.stringify(pin)
          } in the namespace config; change the pin to move it`,
        );
      }
      if (dedicated && pin === undefined) {
        throw new PreconditionError(
          namespace,
          `Cannot move tenant ${JSON.stringify(key)} to cell ${
            JSON.stringify(to)
          }: the cell is dedicated to pinned tenants`,
        );
      }
    }
    this.#checkTarget(runtime, to);
    const moving = unique.filter((key) => state.ownerOf(key) !== to);
    const unchanged = unique.filter((key) => state.ownerOf(key) === to);
    if (options.dryRun) {
      const planned = moving.map((shardKey) => ({ shardKey, from: state.ownerOf(shardKey)!, to }));
      return { moved: [], unchanged, planned };
    }
    if (moving.length === 0) return { moved: [], unchanged, planned: [] };
    if (!runtime.leading) {
      const claim = state.leader?.claim;
      throw new NotLeaderError(namespace, claim?.instanceId, claim?.grpcAddress);
    }
    // A request id is reserved before the move and forgotten if it fails: a
    // retry of a move that was made (or is being made) moves nothing again.
    const { store } = this.#host;
    const requestId = store ? options.requestId : undefined;
    if (store && requestId !== undefined) {
      const reserved = await store.applyOperatorWrite(namespace, { type: "reserve_request" }, {
        requestId,
        atMs: this.#host.clock.now(),
      });
      if (!reserved.applied) return { moved: [], unchanged, planned: [] };
    }
    try {
      return await this.#move(runtime, moving, unchanged, to, signal);
    } catch (error) {
      if (store && requestId !== undefined) {
        await store.applyOperatorWrite(namespace, { type: "forget_request", requestId }, {
          atMs: this.#host.clock.now(),
        }).catch(() => {});
      }
      throw error;
    }
  }

  async #move(
    runtime: NamespaceRuntime,
    moving: string[],
    unchanged: string[],
    to: string,
    signal: AbortSignal | undefined,
  ): Promise<MoveResult> {
    const { cache, policy: { name: namespace } } = runtime;
    const state = cache.state;
    const pending = runtime.cellMoves;
    pending.add(moving, to);
    runtime.requestPass();
    const timeout = timeoutSignal(MOVE_TIMEOUT_MS, this.#host.clock);
    try {
      await cache.waitUntil(
        () => moving.every((key) => state.ownerOf(key) === to),
        signal ? AbortSignal.any([signal, timeout.signal]) : timeout.signal,
      );
    } catch {
      throw new StoreUnavailableError(
        `The move to cell ${JSON.stringify(to)} in namespace ${
          JSON.stringify(namespace)
        } was not committed within ${MOVE_TIMEOUT_MS / 1000}s (leadership may have changed); ` +
          "check with smctl shard inspect and retry",
      );
    } finally {
      pending.settle(moving, to);
      timeout.clear();
    }
    return { moved: moving, unchanged, planned: [] };
  }

  /**
   * The blast radius of the namespace's current assignment. The shards are a
   * fixed namespace's all, or an ephemeral one's placed and waiting ones,
   * drained shards left out; every owner of a replicated shard counts, each
   * only while alive, and the executors that may fail are the alive ones. A
   * replicated namespace also gets the overlap of its live owner sets.
   */
  blastRadius(namespace: string): BlastRadiusView {
    const { policy, view: state } = this.#host.lookup(namespace);
    const now = this.#host.clock.monotonic();
    const alive = new Set<string>();
    for (const e of state.executors()) if (state.isAlive(e, now)) alive.add(e.executorId);
    const tables = state.tables();
    const { keys, placement } = policy;
    const universe = keys.kind === "fixed"
      ? fixedShardKeys(keys.shardNum)
      : new Set([...tables.owners.keys(), ...tables.requested.keys()]);
    const ownerSets: string[][] = [];
    for (const shard of universe) {
      if (state.isDrained(shard)) continue;
      ownerSets.push(state.ownersOf(shard).filter((owner) => alive.has(owner)));
    }
    const radius = { namespace, ...blastRadius(ownerSets, [...alive].sort()) };
    if (placement.kind !== "replicated") return radius;
    const { replicas, maxOverlap: bound } = placement;
    const overlap = measureOverlap(ownerSets, bound === undefined ? {} : { bound });
    return {
      ...radius,
      overlap: {
        maxOverlap: overlap.maxOverlap,
        shardsOverBound: bound === undefined ? 0 : overlap.shardsOverBound,
        combinations: combinations(alive.size, Math.min(replicas, alive.size)),
      },
    };
  }

  #checkTarget(runtime: NamespaceRuntime, to: string): void {
    const state = runtime.view;
    const namespace = runtime.name;
    const cell = state.executor(to);
    if (!cell) throw new ExecutorNotFoundError(namespace, to);
    const refuse = (why: string) =>
      new PreconditionError(namespace, `Cannot move tenants to cell ${JSON.stringify(to)}: ${why}`);
    if (cell.status !== "ACTIVE") throw refuse(`it is ${cell.status}, not ACTIVE`);
    if (!state.isAlive(cell, this.#host.clock.monotonic())) {
      throw refuse("its heartbeat is stale");
    }
    if (state.isExecutorDrained(cell)) throw refuse("it is drained; undrain it or pick another");
  }
}
