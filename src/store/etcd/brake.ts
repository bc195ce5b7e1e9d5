/**
 * The mass-loss brake's record on etcd (store/brake_store.ts): one key per
 * namespace, `<prefix>/ns/<ns>/brake`, the record as JSON, written only in a
 * transaction that compares the leader claim (a force reset deletes it with
 * the rest of the namespace).
 *
 * @module
 */
import type { Etcd3 } from "etcd3";
import { FencedError } from "../../core/errors.ts";
import { type BrakeRecord, decodeBrakeRecord } from "../brake_store.ts";
import type { Fence } from "../store.ts";
import type { NamespaceKeys } from "./keys.ts";
import { get, modIs, put, txn } from "./txn.ts";

/** Reads the record (undefined when absent or damaged). */
export async function readBrake(
  client: Etcd3,
  keys: NamespaceKeys,
): Promise<BrakeRecord | undefined> {
  const res = await txn(client, [], [get(keys.brake)]);
  const kv = res.responses[0]?.response_range.kvs[0];
  return kv ? decodeBrakeRecord(kv.value.toString()) : undefined;
}

/** Replaces the record while `fence` holds the namespace; `FencedError` otherwise. */
export async function writeBrake(
  client: Etcd3,
  keys: NamespaceKeys,
  fence: Fence,
  record: BrakeRecord,
): Promise<void> {
  const res = await txn(client, [modIs(keys.leader, fence.revision)], [
    put(keys.brake, JSON.stringify(record)),
  ]);
  if (!res.succeeded) throw new FencedError(fence.namespace, "the brake record was refused");
}
