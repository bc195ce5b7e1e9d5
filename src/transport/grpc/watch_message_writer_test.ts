import assert from "node:assert/strict";
import fc from "fast-check";
import type { NamespaceDelta, NamespacePicture } from "../../routing/views.ts";
import { toWatchResponse } from "./convert.ts";
import { writeWatchDelta, writeWatchPicture } from "./watch_message_writer.ts";
import { shardDistributorService } from "../../wire/proto.ts";

const numRuns = Number(Deno.env.get("FUZZ_RUNS") ?? 300);
const method = shardDistributorService.WatchNamespaceState;
type Message = NamespacePicture | NamespaceDelta;
const generic = (message: Message) =>
  new Uint8Array(method.responseSerialize(toWatchResponse(message)));

/**
 * Checks `write` against protobufjs over `messages`: the same bytes, or
 * `undefined` for a message `covered` says the writer leaves to protobufjs.
 */
function assertLikeGeneric<M extends Message>(
  messages: fc.Arbitrary<M>,
  write: (message: M) => Uint8Array | undefined,
  covered: (message: M) => boolean = () => true,
): void {
  fc.assert(
    fc.property(messages, (m) => {
      if (covered(m)) assert.deepEqual(write(m), generic(m));
      else assert.equal(write(m), undefined);
    }),
    { numRuns },
  );
}

const ascii = (maxLength: number) =>
  fc.string({
    unit: fc.integer({ min: 0, max: 0x7f }).map((c) => String.fromCharCode(c)),
    maxLength,
  });
const wideKey = fc.string({ unit: "grapheme", minLength: 1, maxLength: 6 })
  .filter((s) => !isAsciiString(s));

function isAsciiString(s: string): boolean {
  return [...s].every((c) => c.charCodeAt(0) < 128);
}

const executor = (key: fc.Arbitrary<string>) =>
  fc.record({
    executorId: ascii(40),
    metadata: fc.dictionary(ascii(20), ascii(200), { maxKeys: 4 }),
    shards: fc.uniqueArray(key, { maxLength: 30 }),
    replicaShards: fc.option(
      fc.array(fc.record({ shard: key, rank: fc.oneof(fc.nat(3), fc.nat()) }), {
        maxLength: 5,
      }),
      { nil: undefined },
    ),
  }).map(({ replicaShards, ...rest }) => replicaShards ? { ...rest, replicaShards } : rest);

const picture = (key: fc.Arbitrary<string>) =>
  fc.record({
    version: fc.nat(),
    revision: fc.option(fc.oneof(fc.nat(300), fc.maxSafeNat()), { nil: undefined }),
    executors: fc.array(executor(key), { maxLength: 6 }),
  }).map(({ revision, ...rest }): NamespacePicture =>
    revision === undefined ? { kind: "snapshot", ...rest } : { kind: "snapshot", revision, ...rest }
  );

Deno.test("a picture is written as the bytes protobufjs writes for it", () => {
  assertLikeGeneric(picture(ascii(30)), writeWatchPicture);
});

Deno.test("a picture with long strings and many shards needs multi-byte lengths, and matches", () => {
  const shards = Array.from({ length: 5_000 }, (_, i) => String(i * 7_919));
  const p: NamespacePicture = {
    version: 3,
    revision: 2 ** 40,
    executors: [
      { executorId: "x".repeat(300), metadata: { address: "a".repeat(20_000) }, shards },
      { executorId: "", metadata: {}, shards: [] },
      {
        executorId: "r",
        metadata: { z: "", "1": "one" },
        shards: [],
        replicaShards: [{ shard: "9", rank: 0 }],
      },
    ],
  };
  assert.deepEqual(writeWatchPicture(p), generic(p));
});

Deno.test("a picture the writer does not cover is left to the generic encoder", () => {
  // Only the shard keys are wide: a picture without shards is still written.
  assertLikeGeneric(
    picture(wideKey),
    writeWatchPicture,
    (p) => !p.executors.some((e) => e.shards.length > 0 || (e.replicaShards?.length ?? 0) > 0),
  );
  const one = (over: Partial<NamespacePicture["executors"][number]>, revision = 1) =>
    writeWatchPicture({
      version: 1,
      revision,
      executors: [{ executorId: "a", metadata: {}, shards: [], ...over }],
    });
  assert.equal(one({ executorId: "é" }), undefined);
  assert.equal(one({ metadata: { zone: "zürich" } }), undefined);
  assert.equal(one({ replicaShards: [{ shard: "1", rank: -1 }] }), undefined);
  assert.equal(one({}, -1), undefined);
  assert.equal(one({}, 2 ** 53), undefined);
});

const delta = (key: fc.Arbitrary<string>) =>
  fc.record({
    fromRevision: fc.nat(),
    revision: fc.oneof(fc.nat(300), fc.maxSafeNat()),
    executors: fc.array(
      fc.record({
        executorId: key,
        metadata: fc.dictionary(key, ascii(50), { maxKeys: 3 }),
      }),
      { maxLength: 4 },
    ),
    owners: fc.array(
      fc.record({
        shard: key,
        owner: fc.option(key, { nil: undefined }),
        owners: fc.option(fc.array(key, { maxLength: 4 }), { nil: undefined }),
      }).map(({ owners, ...rest }) => owners ? { ...rest, owners } : rest),
      { maxLength: 30 },
    ),
    removedExecutors: fc.array(key, { maxLength: 4 }),
  }).map((d): NamespaceDelta => ({ kind: "delta", ...d }));

Deno.test("a delta is written as the bytes protobufjs writes for it", () => {
  assertLikeGeneric(delta(ascii(30)), writeWatchDelta);
});

Deno.test("a delta with a string the writer does not cover is left to the generic encoder", () => {
  // Every string of these deltas is wide: only an empty one is written.
  assertLikeGeneric(
    delta(wideKey),
    writeWatchDelta,
    (d) => d.executors.length + d.owners.length + d.removedExecutors.length === 0,
  );
});
