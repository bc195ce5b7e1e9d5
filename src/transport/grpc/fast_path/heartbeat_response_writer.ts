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
import type { HeartbeatAnswer, OwnedShard } from "../../../service/mod.ts";
import { ByteWriter, delimitedSize, isWireNumber, varintSize } from "../wire_bytes.ts";

const READY = 1;
const RELEASING = 2;
const PREPARING = 3;
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
    const { shardKey, fencingToken, slice } = shards[i]!;
    // Key ranges (a slice's range on each assignment) are written by the general encoder.
    if (!isWireNumber(fencingToken) || slice !== undefined) return undefined;
    size += delimitedSize(entrySize(shardKey.length, fencingToken));
  }
  if (exclusive && !(isWireNumber(exclusive.leaseMs) && isWireNumber(exclusive.revision))) {
    return undefined;
  }
  size += 4; // migration_mode and ownership_mode: a tag and a one-byte value each
  if (exclusive) size += 2 + varintSize(exclusive.leaseMs) + varintSize(exclusive.revision);

  const w = new ByteWriter(size);
  for (let i = 0; i < shards.length; i++) {
    const { shardKey: key, fencingToken, releasing, preparing } = shards[i]!;
    w.byte(0x0a); // field 1, length-delimited: one map entry
    w.varint(entrySize(key.length, fencingToken));
    w.byte(0x0a); // entry key: ASCII, one byte per character
    w.ascii(key);
    w.byte(0x12); // entry value: ShardAssignment
    w.byte(valueSize(fencingToken));
    w.byte(0x08); // status
    w.byte(preparing ? PREPARING : releasing ? RELEASING : READY);
    w.byte(0x10); // fencing_token
    w.varint(fencingToken);
  }
  w.byte(0x10); // migration_mode
  w.byte(ONBOARDED);
  w.byte(0x18); // ownership_mode
  w.byte(exclusive ? EXCLUSIVE : AVAILABLE);
  if (exclusive) {
    w.byte(0x20); // ownership_lease_ms
    w.varint(exclusive.leaseMs);
    w.byte(0x28); // revision
    w.varint(exclusive.revision);
  }
  return w.finish();
}

function valueSize(fencingToken: number): number {
  return 2 + 1 + varintSize(fencingToken);
}

function entrySize(keyBytes: number, fencingToken: number): number {
  return delimitedSize(keyBytes) + 2 + valueSize(fencingToken);
}
