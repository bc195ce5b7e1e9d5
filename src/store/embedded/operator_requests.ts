/**
 * Operator writes on the embedded store: the request ids already applied
 * (so a retried call is not applied twice) and when executor drains were
 * last stored (for a guard that refuses a write made on an older view), all
 * in memory for the process's life, as one process serves the store.
 *
 * @module
 */
import type { ExecutorDrain } from "../../core/executor_drain.ts";
import type {
  OperatorGuard,
  OperatorWrite,
  OperatorWriteOutcome,
  RequestRetention,
} from "../operator_write.ts";

/** The writes an operator write is made of, on the store that applies it. */
export interface OperatorWriteTarget {
  /** The store's current revision. */
  revision(): number;
  setDrained(namespace: string, shardKeys: readonly string[], drained: boolean): Promise<number>;
  putExecutorDrain(namespace: string, drain: ExecutorDrain): Promise<number>;
  deleteExecutorDrain(namespace: string, id: string): Promise<number>;
  resetNamespace(namespace: string): Promise<number>;
}

/**
 * Forgets the ids of `ids` beyond `retention` (older than `beforeMs`, or past
 * the newest `keep`); returns how many went.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { pruneRequestIds } from "./operator_requests.ts";
 *
 * const ids = new Map([["a", 1], ["b", 2], ["c", 3]]);
 * assert.equal(pruneRequestIds(ids, { beforeMs: 2, keep: 1 }), 2);
 * assert.deepEqual([...ids.keys()], ["c"]);
 * ```
 */
export function pruneRequestIds(ids: Map<string, number>, retention: RequestRetention): number {
  const newest = [...ids].sort((a, b) => b[1] - a[1]);
  let forgotten = 0;
  for (const [i, [id, atMs]] of newest.entries()) {
    if (i >= retention.keep || atMs < retention.beforeMs) {
      ids.delete(id);
      forgotten++;
    }
  }
  return forgotten;
}

/** Applied request ids and executor-drain revisions, per namespace. */
export class OperatorRequests {
  readonly #ids = new Map<string, Map<string, number>>();
  readonly #drainsStoredAt = new Map<string, number>();

  /** Applies `write` to `target` under `guard` (see `Store.applyOperatorWrite`). */
  async apply(
    target: OperatorWriteTarget,
    namespace: string,
    write: OperatorWrite,
    guard: OperatorGuard,
  ): Promise<OperatorWriteOutcome> {
    let ids = this.#ids.get(namespace);
    if (!ids) this.#ids.set(namespace, ids = new Map());
    if (guard.requestId !== undefined && ids.has(guard.requestId)) {
      return { applied: false, reason: "duplicate", revision: target.revision() };
    }
    const since = guard.drainsUnchangedSince;
    if (since !== undefined && (this.#drainsStoredAt.get(namespace) ?? 0) > since) {
      return { applied: false, reason: "changed", revision: target.revision() };
    }
    // Checked and reserved before the first await, so concurrent calls see it.
    if (guard.requestId !== undefined) ids.set(guard.requestId, guard.atMs);
    const done = (revision: number, deleted = 0) => ({ applied: true as const, revision, deleted });
    switch (write.type) {
      case "shard_drains":
        return done(await target.setDrained(namespace, write.shardKeys, write.drained));
      case "put_executor_drain": {
        this.#drainsStoredAt.set(namespace, target.revision() + 1);
        const revision = await target.putExecutorDrain(namespace, write.drain);
        this.#drainsStoredAt.set(namespace, revision);
        return done(revision);
      }
      case "delete_executor_drain":
        return done(await target.deleteExecutorDrain(namespace, write.id));
      case "reset": {
        const deleted = await target.resetNamespace(namespace);
        return done(target.revision(), deleted);
      }
      case "reserve_request":
        return done(target.revision());
      case "forget_request":
        ids.delete(write.requestId);
        return done(target.revision());
    }
  }

  /** Forgets applied request ids of `namespace` beyond `retention`; returns how many. */
  prune(namespace: string, retention: RequestRetention): number {
    const ids = this.#ids.get(namespace);
    return ids ? pruneRequestIds(ids, retention) : 0;
  }
}
