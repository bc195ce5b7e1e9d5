/**
 * A heartbeat answer written straight to protobuf bytes. The generic path
 * (an object per shard, protobufjs's `fromObject`, a `Long` per fencing
 * token, then `encode`) cost ~4.7 µs per shard: after 1,000,000 shards were
 * placed over 1,000 executors, the first answers held the thread for 4.7 s
 * and the instance lost its leadership. Here each shard costs a few byte
 * writes. The bytes are the ones protobufjs writes for the same answer
 * (heartbeat_response_writer_test.ts compares them); an answer this writer
 * does not cover (a fencing token or lease outside 0..2^53, a shard key that is
 * not ASCII) returns
 * `undefined`, and the caller takes the generic path.
 *
 * Message layout (executor.proto): `HeartbeatResponse { map<string,
 * ShardAssignment> shard_assignments = 1; MigrationMode migration_mode = 2;
 * OwnershipMode ownership_mode = 3; int64 ownership_lease_ms = 4; int64
 * revision = 5; }`, `ShardAssignment { AssignmentStatus status = 1; int64
 * fencing_token = 2; }`.
 *
 * @module
 */
import type { HeartbeatAnswer, OwnedShard } from "../../service/heartbeat_answers.ts";

const READY = 1;
const RELEASING = 2;
const ONBOARDED = 4;
const AVAILABLE = 1;
const EXCLUSIVE = 2;

/**
 * The wire bytes of the `HeartbeatResponse` of an answer's `shards` (sorted,
 * as `HeartbeatAnswer.shards()` gives them) and `exclusive`, or `undefined` when a
 * number in it is not a whole number in 0..2^53 or a shard key is not ASCII
 * (the generic encoder then decides).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { writeHeartbeatResponse } from "./heartbeat_response_writer.ts";
 *
 * const bytes = writeHeartbeatResponse([{ shardKey: "7", fencingToken: 300 }]);
 * // shard_assignments {"7": {READY, 300}}, migration_mode ONBOARDED, ownership_mode AVAILABLE
 * assert.deepEqual([...bytes!], [10, 10, 10, 1, 55, 18, 5, 8, 1, 16, 172, 2, 16, 4, 24, 1]);
 * ```
 */
export function writeHeartbeatResponse(
  shards: readonly OwnedShard[],
  exclusive?: HeartbeatAnswer["exclusive"],
): Uint8Array | undefined {
  let size = 0;
  for (let i = 0; i < shards.length; i++) {
    const { shardKey, fencingToken } = shards[i]!;
    if (!isWireNumber(fencingToken) || !isAscii(shardKey)) return undefined;
    const entry = entrySize(shardKey.length, fencingToken);
    size += 1 + varintSize(entry) + entry;
  }
  if (exclusive && !(isWireNumber(exclusive.leaseMs) && isWireNumber(exclusive.revision))) {
    return undefined;
  }
  size += 4; // migration_mode and ownership_mode: a tag and a one-byte value each
  if (exclusive) size += 2 + varintSize(exclusive.leaseMs) + varintSize(exclusive.revision);

  const out = new Uint8Array(size);
  let at = 0;
  const varint = (value: number) => {
    while (value > 127) {
      out[at++] = (value % 128) | 128;
      value = Math.floor(value / 128);
    }
    out[at++] = value;
  };
  for (let i = 0; i < shards.length; i++) {
    const { shardKey: key, fencingToken, releasing } = shards[i]!;
    out[at++] = 0x0a; // field 1, length-delimited: one map entry
    varint(entrySize(key.length, fencingToken));
    out[at++] = 0x0a; // entry key: ASCII, one byte per character
    varint(key.length);
    for (let c = 0; c < key.length; c++) out[at++] = key.charCodeAt(c);
    out[at++] = 0x12; // entry value: ShardAssignment
    out[at++] = valueSize(fencingToken);
    out[at++] = 0x08; // status
    out[at++] = releasing ? RELEASING : READY;
    out[at++] = 0x10; // fencing_token
    varint(fencingToken);
  }
  out[at++] = 0x10; // migration_mode
  out[at++] = ONBOARDED;
  out[at++] = 0x18; // ownership_mode
  out[at++] = exclusive ? EXCLUSIVE : AVAILABLE;
  if (exclusive) {
    out[at++] = 0x20; // ownership_lease_ms
    varint(exclusive.leaseMs);
    out[at++] = 0x28; // revision
    varint(exclusive.revision);
  }
  return out;
}

function isWireNumber(n: number): boolean {
  return Number.isSafeInteger(n) && n >= 0;
}

function isAscii(key: string): boolean {
  for (let i = 0; i < key.length; i++) {
    if (key.charCodeAt(i) > 127) return false;
  }
  return true;
}

function valueSize(fencingToken: number): number {
  return 2 + 1 + varintSize(fencingToken);
}

function entrySize(keyBytes: number, fencingToken: number): number {
  return 1 + varintSize(keyBytes) + keyBytes + 2 + valueSize(fencingToken);
}

function varintSize(value: number): number {
  let n = 1;
  while (value > 127) {
    value = Math.floor(value / 128);
    n++;
  }
  return n;
}
