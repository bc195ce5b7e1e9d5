import assert from "node:assert/strict";
import fc from "fast-check";
import type { HeartbeatAnswer } from "../../../service/mod.ts";
import { compareShardKeys } from "../../../routing/routing.ts";
import { toHeartbeatResponse } from "../heartbeat_handler.ts";
import { writeHeartbeatResponse } from "./heartbeat_response_writer.ts";
import { executorService } from "../../../wire/proto.ts";

const numRuns = Number(Deno.env.get("FUZZ_RUNS") ?? 300);
const generic = (answer: HeartbeatAnswer) =>
  new Uint8Array(
    executorService.Heartbeat.responseSerialize(
      toHeartbeatResponse(answer.shards(), answer.exclusive),
    ),
  );
const written = (answer: HeartbeatAnswer) =>
  writeHeartbeatResponse(answer.shards(), answer.exclusive);

/** Numbers at every varint width, and the edges of the range the writer covers. */
const wireNumber = fc.oneof(
  fc.nat({ max: 300 }),
  fc.nat(),
  fc.maxSafeNat(),
  fc.constantFrom(0, 127, 128, 16_383, 16_384, 2 ** 31, 2 ** 32, 2 ** 53 - 1),
);
const asciiKey = fc.string({
  unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)),
  maxLength: 200,
});

const answer = fc.record({
  shards: fc.uniqueArray(
    fc.record({ shardKey: asciiKey, fencingToken: wireNumber, releasing: fc.boolean() }),
    { selector: (s) => s.shardKey, maxLength: 40 },
  ),
  exclusive: fc.option(fc.record({ leaseMs: wireNumber, revision: wireNumber }), {
    nil: undefined,
  }),
}).map(({ shards, exclusive }): HeartbeatAnswer => ({
  // Sorted, as every answer is (and as protobufjs writes a map: index-like keys first).
  stamp: 1,
  shards: () =>
    shards.sort((a, b) => compareShardKeys(a.shardKey, b.shardKey)).map((
      s,
    ) => (s.releasing ? s : { shardKey: s.shardKey, fencingToken: s.fencingToken })),
  ...(exclusive ? { exclusive } : {}),
}));

Deno.test("the writer's bytes are protobufjs's bytes for the same answer", () => {
  fc.assert(
    fc.property(answer, (a) => {
      assert.deepEqual(written(a), generic(a));
    }),
    { numRuns },
  );
});

Deno.test("a long answer: a multi-byte length prefix per entry and for keys", () => {
  const shards = Array.from(
    { length: 2_000 },
    (_, i) => ({ shardKey: "k".repeat(i % 300), fencingToken: i * 1_000_003 }),
  );
  const a: HeartbeatAnswer = {
    stamp: 1,
    shards: () => shards.filter((s, i) => shards.findIndex((t) => t.shardKey === s.shardKey) === i),
  };
  assert.deepEqual(written(a), generic(a));
});

Deno.test("what the writer does not cover is left to the generic encoder", () => {
  const one = (shardKey: string, fencingToken: number): HeartbeatAnswer => ({
    stamp: 1,
    shards: () => [{ shardKey, fencingToken }],
  });
  assert.equal(written(one("tëst", 1)), undefined);
  assert.equal(written(one("a", -1)), undefined);
  assert.equal(written(one("a", 2 ** 53)), undefined);
  assert.equal(written(one("a", 1.5)), undefined);
  assert.equal(
    written({
      stamp: undefined,
      shards: () => [],
      exclusive: { leaseMs: -5, revision: 1 },
    }),
    undefined,
  );
  // And the answers it leaves are still answered: the generic path encodes them.
  assert.ok(generic(one("tëst", 1)).length > 0);
});
