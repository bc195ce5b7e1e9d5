/**
 * The etcd store's writes of executor state: heartbeat records packed into
 * few transactions (with their own short deadline), the leader's read of
 * their records' revisions, and its fenced removal of executors that went
 * away and of shard requests it handled.
 *
 * @module
 */
import type { Etcd3, IRequestOp } from "etcd3";
import { Buffer } from "node:buffer";
import type { ExecutorWrite } from "../../core/types.ts";
import type { Fence, Versioned } from "../store.ts";
import { encodeHeartbeat, encodeReports } from "./codec.ts";
import type { NamespaceKeys } from "./keys.ts";
import { del, MAX_TXN_OPS, modIs, put, txn, writeAll } from "./txn.ts";

/**
 * Deadline of one heartbeat write, ms (other calls have the client's 10 s).
 * Heartbeats are written one round at a time, so a round that waits on an
 * etcd member which has just been cut off from its peers (etcd answers such a
 * call only after its request timeout, about 7 s) would hold back every
 * executor's heartbeat on this instance. Failing it sooner lets the executors'
 * next heartbeats be written through another member; a record written late is
 * harmless.
 */
export const HEARTBEAT_WRITE_TIMEOUT_MS = 2_000;

/** Conditional deletes per transaction: a compare and a delete each. */
const CONDITIONAL_BATCH = MAX_TXN_OPS / 2 - 1;

/**
 * Writes executor state, packing many executors into each transaction; one
 * executor's puts always share one, so a heartbeat is never seen before the
 * metadata that selector drains match on. Returns the highest revision.
 */
export async function writeExecutors(
  client: Etcd3,
  keys: NamespaceKeys,
  writes: readonly ExecutorWrite[],
): Promise<number> {
  const chunks: IRequestOp[][] = [[]];
  for (const w of writes) {
    const ops: IRequestOp[] = [];
    if (w.metadata) {
      ops.push(put(keys.executor(w.executorId, "metadata"), JSON.stringify(w.metadata)));
    }
    if (w.reports) {
      ops.push(put(keys.executor(w.executorId, "reports"), encodeReports(w.reports)));
    }
    ops.push(put(keys.executor(w.executorId, "heartbeat"), encodeHeartbeat(w.heartbeat)));
    if (chunks.at(-1)!.length + ops.length > MAX_TXN_OPS) chunks.push([]);
    chunks.at(-1)!.push(...ops);
  }
  const results = await Promise.all(
    chunks.map((chunk) => writeAll(client, chunk, HEARTBEAT_WRITE_TIMEOUT_MS)),
  );
  return Math.max(0, ...results);
}

/**
 * Each executor's heartbeat record revision as etcd holds it now (0 when
 * absent): one transaction of key-only reads, on whichever member answers.
 */
export async function heartbeatRevisions(
  client: Etcd3,
  keys: NamespaceKeys,
  executorIds: readonly string[],
): Promise<Map<string, number>> {
  const revisions = new Map<string, number>();
  for (let i = 0; i < executorIds.length; i += MAX_TXN_OPS) {
    const ids = executorIds.slice(i, i + MAX_TXN_OPS);
    const reads: IRequestOp[] = ids.map((id) => ({
      request_range: { key: Buffer.from(keys.executor(id, "heartbeat")), keys_only: true },
    }));
    const res = await txn(client, [], reads);
    ids.forEach((id, j) => {
      const kv = res.responses[j]?.response_range?.kvs[0];
      revisions.set(id, kv ? Number(kv.mod_revision) : 0);
    });
  }
  return revisions;
}

/** Removes executors whose heartbeat is unchanged since `revision`, fenced on the leader claim. */
export async function removeExecutors(
  client: Etcd3,
  keys: NamespaceKeys,
  fence: Fence,
  executors: readonly Versioned[],
): Promise<void> {
  await Promise.all(executors.map((e) =>
    txn(client, [
      modIs(keys.leader, fence.revision),
      modIs(keys.executor(e.id, "heartbeat"), e.revision),
    ], [
      del(keys.executor(e.id, "heartbeat")),
      del(keys.executor(e.id, "metadata")),
      del(keys.executor(e.id, "reports")),
    ])
  ));
}

/**
 * Removes shard requests still at their revision, fenced on the leader
 * claim; a batch that conflicts is retried key by key.
 */
export async function clearRequests(
  client: Etcd3,
  keys: NamespaceKeys,
  fence: Fence,
  requests: readonly Versioned[],
): Promise<void> {
  const prefix = keys.requests;
  const leader = modIs(keys.leader, fence.revision);
  const clear = (batch: readonly Versioned[]) =>
    txn(
      client,
      [leader, ...batch.map((r) => modIs(`${prefix}${r.id}`, r.revision))],
      batch.map((r) => del(`${prefix}${r.id}`)),
    );
  for (let i = 0; i < requests.length; i += CONDITIONAL_BATCH) {
    const batch = requests.slice(i, i + CONDITIONAL_BATCH);
    const res = await clear(batch);
    if (!res.succeeded && batch.length > 1) await Promise.all(batch.map((r) => clear([r])));
  }
}
