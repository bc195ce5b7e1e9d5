/**
 * Operator writes on etcd: one transaction holds the write, the put of its
 * request id and the guards (the request id is absent; no executor drain key
 * was modified after the budget's revision, a compare over the whole
 * executor-drains range).
 *
 * @module
 */
import { Buffer } from "node:buffer";
import type { Etcd3, ICompare, IRequestOp } from "etcd3";
import { StoreUnavailableError } from "../../core/errors.ts";
import type {
  OperatorGuard,
  OperatorWrite,
  OperatorWriteOutcome,
  RequestRetention,
} from "../operator_write.ts";
import { encodeExecutorDrain } from "./codec.ts";
import { type NamespaceKeys, operatorRequestsPrefix, prefixEnd } from "./keys.ts";
import { absent, del, errorText, get, MAX_TXN_OPS, put, txn, writeAll } from "./txn.ts";
import { parseJson } from "../../core/parse_json.ts";

function opsOf(
  prefix: string,
  namespace: string,
  keys: NamespaceKeys,
  write: OperatorWrite,
): IRequestOp[] {
  switch (write.type) {
    case "shard_drains":
      return write.shardKeys.map((key) =>
        write.drained ? put(`${keys.drained}${key}`, "") : del(`${keys.drained}${key}`)
      );
    case "put_executor_drain":
      return [put(keys.executorDrain(write.drain.id), encodeExecutorDrain(write.drain))];
    case "delete_executor_drain":
      return [del(keys.executorDrain(write.id))];
    case "reset":
      return [del(keys.root, prefixEnd(keys.root))];
    case "reserve_request":
      return [];
    case "forget_request":
      return [
        del(`${operatorRequestsPrefix(prefix, namespace)}${encodeURIComponent(write.requestId)}`),
      ];
  }
}

/** Applies `write` under `guard` in one transaction (the first one, for a large shard drain). */
export async function applyOperatorWrite(
  client: Etcd3,
  prefix: string,
  keys: NamespaceKeys,
  namespace: string,
  write: OperatorWrite,
  guard: OperatorGuard,
): Promise<OperatorWriteOutcome> {
  const compare: ICompare[] = [];
  const failure: IRequestOp[] = [];
  const ops = opsOf(prefix, namespace, keys, write);
  const requestKey = guard.requestId === undefined
    ? undefined
    : `${operatorRequestsPrefix(prefix, namespace)}${encodeURIComponent(guard.requestId)}`;
  if (requestKey !== undefined) {
    compare.push(absent(requestKey));
    failure.push(get(requestKey));
  }
  if (guard.drainsUnchangedSince !== undefined) {
    compare.push({
      key: Buffer.from(keys.executorDrains),
      range_end: Buffer.from(prefixEnd(keys.executorDrains)),
      target: "Mod",
      result: "Less",
      mod_revision: guard.drainsUnchangedSince + 1,
    });
  }
  // The first transaction carries the guards and the request id; the rest of
  // a large shard drain (puts and deletes that are idempotent) follows it.
  const room = MAX_TXN_OPS - (requestKey === undefined ? 0 : 1);
  const first = ops.slice(0, room);
  if (requestKey !== undefined) {
    first.push(put(requestKey, JSON.stringify({ atMs: guard.atMs, type: write.type })));
  }
  const res = await txn(client, compare, first, failure);
  const revision = Number(res.header.revision);
  if (!res.succeeded) {
    const duplicate = (res.responses[0]?.response_range?.kvs.length ?? 0) > 0;
    return { applied: false, reason: duplicate ? "duplicate" : "changed", revision };
  }
  const rest = ops.slice(room);
  const last = rest.length === 0 ? revision : await writeAll(client, rest);
  const deleted = write.type === "reset"
    ? Number(res.responses[0]?.response_delete_range?.deleted ?? 0)
    : 0;
  return { applied: true, revision: Math.max(revision, last), deleted };
}

/** Deletes request ids recorded before `retention.beforeMs` and all but the newest `keep`. */
export async function pruneOperatorRequests(
  client: Etcd3,
  prefix: string,
  namespace: string,
  retention: RequestRetention,
): Promise<number> {
  const from = operatorRequestsPrefix(prefix, namespace);
  let kvs;
  try {
    ({ kvs } = await client.kv.range({
      key: Buffer.from(from),
      range_end: Buffer.from(prefixEnd(from)),
    }));
  } catch (cause) {
    throw new StoreUnavailableError(`etcd read failed: ${errorText(cause)}`, { cause });
  }
  const entries = kvs.map((kv) => ({ key: kv.key.toString(), atMs: recordedAt(kv.value) }))
    .sort((a, b) => b.atMs - a.atMs);
  const doomed = entries.filter((e, i) => i >= retention.keep || e.atMs < retention.beforeMs);
  if (doomed.length > 0) await writeAll(client, doomed.map((e) => del(e.key)));
  return doomed.length;
}

function recordedAt(value: Buffer): number {
  try {
    const atMs = (parseJson(value.toString()) as { atMs?: unknown }).atMs;
    return typeof atMs === "number" ? atMs : 0;
  } catch {
    return 0;
  }
}
