/**
 * Watch messages (a whole namespace picture, or a delta) written straight to
 * `WatchNamespaceStateResponse` bytes. protobufjs's generic path (an object
 * per shard, `fromObject`, then `encode`) took 1.4–1.9 s for a picture of 1,000,000 shards over 1,000
 * executors, on the instance's one thread, each time the picture changed while
 * a spectator needed it whole; here each shard costs a few byte writes. The
 * bytes are the ones protobufjs writes for the same picture
 * (watch_message_writer_test.ts compares them); a picture this writer does not
 * cover (a string that is not ASCII, a revision or rank out of range) returns
 * `undefined`, and the caller takes the generic path.
 *
 * Message layout (service.proto): `WatchNamespaceStateResponse { repeated
 * ExecutorInfo executors = 1; int64 revision = 2; bool is_delta = 3; repeated
 * ShardOwnerChange owner_changes = 4; repeated string removed_executors = 5;
 * }`, `ShardOwnerChange { string shard_key = 1; string executor_id = 2;
 * repeated string executor_ids = 3; }`, `ExecutorInfo {
 * string executor_id = 1; map<string, string> metadata = 2; repeated Shard
 * shards = 3; repeated Shard replica_shards = 4; }`, `Shard { string
 * shard_key = 1; int32 rank = 2; }`.
 *
 * @module
 */
import type { NamespaceDelta, NamespacePicture } from "../../routing/views.ts";
import { ByteWriter, delimitedSize, isWireNumber, varintSize } from "./wire_bytes.ts";

type Executor = NamespacePicture["executors"][number] | NamespaceDelta["executors"][number];
type OwnerChange = NamespaceDelta["owners"][number];

/**
 * The wire bytes of `picture` as a snapshot message, or `undefined` when a
 * string in it is not ASCII or a number is out of the range written here.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { writeWatchPicture } from "./watch_message_writer.ts";
 *
 * const bytes = writeWatchPicture({
 *   version: 1,
 *   revision: 9,
 *   executors: [{ executorId: "a", metadata: {}, shards: ["0"] }],
 * });
 * // executors { executor_id "a", shards { shard_key "0" } }, revision 9
 * assert.deepEqual([...bytes!], [10, 8, 10, 1, 97, 26, 3, 10, 1, 48, 16, 9]);
 * ```
 */
export function writeWatchPicture(picture: NamespacePicture): Uint8Array | undefined {
  // A slice map (key-range namespaces) is written by the general encoder.
  if (picture.sliceMap) return undefined;
  return writeWatchMessage(picture.executors, picture.revision ?? 0);
}

/**
 * The wire bytes of `delta` as a delta message, or `undefined` when a string
 * in it is not ASCII or a number is out of the range written here.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { writeWatchDelta } from "./watch_message_writer.ts";
 *
 * const bytes = writeWatchDelta({
 *   kind: "delta",
 *   fromRevision: 8,
 *   revision: 9,
 *   executors: [],
 *   owners: [{ shard: "0", owner: undefined }],
 *   removedExecutors: ["a"],
 * });
 * // revision 9, is_delta, owner_changes { shard_key "0", executor_id "" }, removed_executors "a"
 * assert.deepEqual([...bytes!], [16, 9, 24, 1, 34, 5, 10, 1, 48, 18, 0, 42, 1, 97]);
 * ```
 */
export function writeWatchDelta(delta: NamespaceDelta): Uint8Array | undefined {
  if (delta.sliceMap) return undefined;
  return writeWatchMessage(delta.executors, delta.revision, delta);
}

function writeWatchMessage(
  executors: readonly Executor[],
  revision: number,
  delta?: NamespaceDelta,
): Uint8Array | undefined {
  if (!isWireNumber(revision)) return undefined;
  const sizes = new Array<number>(executors.length);
  let size = 1 + varintSize(revision);
  for (let i = 0; i < executors.length; i++) {
    const executor = executorSize(executors[i]!);
    if (executor === undefined) return undefined;
    sizes[i] = executor;
    size += delimitedSize(executor);
  }
  if (delta) size += deltaSize(delta);
  const w = new ByteWriter(size);
  for (let i = 0; i < executors.length; i++) writeExecutor(w, executors[i]!, sizes[i]!);
  w.byte(0x10); // revision
  w.varint(revision);
  if (delta) writeDeltaFields(w, delta);
  return w.finish();
}

function writeExecutor(w: ByteWriter, executor: Executor, size: number): void {
  const { executorId, metadata } = executor;
  w.byte(0x0a); // executors
  w.varint(size);
  w.byte(0x0a); // executor_id
  w.ascii(executorId);
  for (const key of Object.keys(metadata)) {
    const value = metadata[key]!;
    w.byte(0x12); // metadata: one map entry
    w.varint(metadataEntrySize(key, value));
    w.byte(0x0a);
    w.ascii(key);
    w.byte(0x12);
    w.ascii(value);
  }
  if (!("shards" in executor)) return;
  const { shards, replicaShards } = executor;
  for (let s = 0; s < shards.length; s++) {
    const key = shards[s]!;
    w.byte(0x1a); // shards
    w.varint(delimitedSize(key.length));
    w.byte(0x0a); // shard_key
    w.ascii(key);
  }
  for (const { shard, rank } of replicaShards ?? []) {
    w.byte(0x22); // replica_shards
    w.varint(replicaShardSize(shard, rank));
    w.byte(0x0a);
    w.ascii(shard);
    w.byte(0x10); // rank
    w.varint(rank);
  }
}

function writeDeltaFields(w: ByteWriter, delta: NamespaceDelta): void {
  w.byte(0x18); // is_delta
  w.byte(1);
  for (const change of delta.owners) {
    w.byte(0x22); // owner_changes
    w.varint(ownerChangeSize(change));
    w.byte(0x0a); // shard_key
    w.ascii(change.shard);
    w.byte(0x12); // executor_id ("" for none)
    w.ascii(change.owner ?? "");
    if (change.owners && change.owners.length > 1) {
      for (const id of change.owners) {
        w.byte(0x1a); // executor_ids
        w.ascii(id);
      }
    }
  }
  for (const id of delta.removedExecutors) {
    w.byte(0x2a); // removed_executors
    w.ascii(id);
  }
}

/** Bytes of the delta's own fields (strings counted one byte per character). */
function deltaSize(delta: NamespaceDelta): number {
  let size = 2;
  for (const change of delta.owners) {
    size += delimitedSize(ownerChangeSize(change));
  }
  for (const id of delta.removedExecutors) {
    size += delimitedSize(id.length);
  }
  return size;
}

function ownerChangeSize({ shard, owner, owners }: OwnerChange): number {
  let size = delimitedSize(shard.length) + delimitedSize((owner ?? "").length);
  if (owners && owners.length > 1) { for (const id of owners) size += delimitedSize(id.length); }
  return size;
}

/**
 * Bytes of one `ExecutorInfo` (strings counted one byte per character), or
 * undefined when a rank is out of the range written here.
 */
function executorSize(executor: Executor): number | undefined {
  const { executorId, metadata } = executor;
  let size = delimitedSize(executorId.length);
  for (const key of Object.keys(metadata)) {
    const value = metadata[key]!;
    size += delimitedSize(metadataEntrySize(key, value));
  }
  if (!("shards" in executor)) return size;
  const { shards, replicaShards } = executor;
  for (let s = 0; s < shards.length; s++) {
    size += delimitedSize(delimitedSize(shards[s]!.length));
  }
  for (const { shard, rank } of replicaShards ?? []) {
    if (!Number.isInteger(rank) || rank < 0 || rank > 2 ** 31 - 1) return undefined;
    size += delimitedSize(replicaShardSize(shard, rank));
  }
  return size;
}

/** Bytes of one metadata map entry (key field, value field). */
function metadataEntrySize(key: string, value: string): number {
  return delimitedSize(key.length) + delimitedSize(value.length);
}

/** Bytes of one `Shard` in `replica_shards` (shard_key, rank). */
function replicaShardSize(shard: string, rank: number): number {
  return delimitedSize(shard.length) + 1 + varintSize(rank);
}
