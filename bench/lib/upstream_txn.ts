/**
 * A rebalance committed the way upstream Cadence commits it: one etcd
 * transaction that, for every executor, compares the mod revision of its
 * `assigned_state` key and puts the new state, plus one compare on the
 * leader's key (the fencing guard). Talks to etcd directly with `npm:etcd3`.
 *
 * @module
 */
import { Buffer } from "node:buffer";
import { Etcd3, type ICompare, type IRequestOp } from "etcd3";

/** What one attempt did. */
export interface UpstreamAttempt {
  /** Executors in the namespace. */
  readonly executors: number;
  /** Compares in the transaction. */
  readonly compares: number;
  /** Operations in its success branch. */
  readonly operations: number;
  /** Whether etcd committed it. */
  readonly committed: boolean;
  /** etcd's error, when it refused. */
  readonly error?: string;
}

/**
 * Writes `executors` assigned states under `prefix`, then commits a
 * rebalance of all of them in one transaction, as upstream does.
 *
 * @example
 * ```ts ignore
 * import { upstreamRebalance } from "./upstream_txn.ts";
 *
 * const attempt = await upstreamRebalance("127.0.0.1:2379", "upstream/129", 129);
 * console.log(attempt.committed, attempt.error);
 * ```
 */
export async function upstreamRebalance(
  endpoint: string,
  prefix: string,
  executors: number,
): Promise<UpstreamAttempt> {
  const client = new Etcd3({ hosts: [endpoint] });
  try {
    const leaderKey = `${prefix}/leader`;
    await client.put(leaderKey).value("leader-1");
    const stateKey = (e: number) => `${prefix}/executors/executor-${e}/assigned_state`;
    for (let from = 0; from < executors; from += 100) {
      const ops: IRequestOp[] = [];
      for (let e = from; e < Math.min(executors, from + 100); e++) {
        ops.push(put(stateKey(e), JSON.stringify({ shards: [String(e)] })));
      }
      await client.kv.txn({ compare: [], success: ops, failure: [] });
    }
    const revisions = await client.getAll().prefix(`${prefix}/`).exec();
    const modOf = new Map(revisions.kvs.map((kv) => [kv.key.toString(), kv.mod_revision]));
    const compare: ICompare[] = [modIs(leaderKey, modOf.get(leaderKey)!)];
    const success: IRequestOp[] = [];
    for (let e = 0; e < executors; e++) {
      compare.push(modIs(stateKey(e), modOf.get(stateKey(e))!));
      success.push(put(stateKey(e), JSON.stringify({ shards: [String((e + 1) % executors)] })));
    }
    const base = { executors, compares: compare.length, operations: success.length };
    try {
      const res = await client.kv.txn({ compare, success, failure: [] });
      return { ...base, committed: res.succeeded };
    } catch (error) {
      return {
        ...base,
        committed: false,
        error: error instanceof Error ? error.message : String(error),
      };
    }
  } finally {
    client.close();
  }
}

function put(key: string, value: string): IRequestOp {
  return { request_put: { key: Buffer.from(key), value: Buffer.from(value) } };
}

function modIs(key: string, revision: string): ICompare {
  return { key: Buffer.from(key), target: "Mod", result: "Equal", mod_revision: revision };
}
