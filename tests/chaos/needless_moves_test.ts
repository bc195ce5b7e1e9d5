import assert from "node:assert/strict";
import type { ChaosEvent, HeartbeatEvent } from "./events.ts";
import { findNeedlessMoves, judgeTakes } from "./needless_moves.ts";

const hb = (
  at: number,
  assigned: string[],
  extra: Partial<HeartbeatEvent> = {},
): HeartbeatEvent => ({
  type: "heartbeat",
  at,
  sentAt: at - 4,
  process: "p",
  executor: "e",
  namespace: "n",
  ok: true,
  assigned,
  ...extra,
});
const OPTIONS = { windowMs: 1_000, from: 0, until: 100_000 };
const shards = (events: ChaosEvent[]) => findNeedlessMoves(events, OPTIONS).map((m) => m.shard);

Deno.test("every shard taken at once from an executor answered throughout is needless", () => {
  assert.deepEqual(shards([hb(0, ["1", "2"]), hb(500, ["1", "2"]), hb(1_000, [])]), ["1", "2"]);
});

Deno.test("shards listed as releasing count as taken", () => {
  const events = [hb(0, ["1", "2"]), hb(500, [], { releasing: ["1", "2"] })];
  assert.deepEqual(shards(events), ["1", "2"]);
});

Deno.test("a move that leaves the executor some of its shards is balancing", () => {
  assert.deepEqual(shards([hb(0, ["1", "2", "3"]), hb(500, ["1"])]), []);
  assert.deepEqual(shards([hb(0, ["1", "2"]), hb(500, ["2"], { releasing: ["1"] })]), []);
});

Deno.test("new shards in the same answer do not hide the loss of every old one", () => {
  assert.deepEqual(shards([hb(0, ["1", "2"]), hb(500, ["3"])]), ["1", "2"]);
});

Deno.test("a gap longer than the window between two answers excuses the move", () => {
  assert.deepEqual(shards([hb(0, ["1"]), hb(1_001, [])]), []);
  assert.deepEqual(shards([hb(0, ["1"]), hb(1_000, [])]), ["1"]);
  // A failed heartbeat in between is not an answer: the gap runs from the last answer.
  const failed = [hb(0, ["1"]), hb(600, [], { ok: false }), hb(1_200, [])];
  assert.deepEqual(shards(failed), []);
  // A frozen executor (SIGSTOP) reads answer k−1 when it resumes and sends k at once: the answers
  // are 250 ms apart, the sends 3 s; the service heard nothing in between.
  const frozen = [hb(3_000, ["1"], { sentAt: 0 }), hb(3_250, [], { sentAt: 3_005 })];
  assert.deepEqual(shards(frozen), []);
});

Deno.test("in a namespace answered without waiting, a gap just before the answer before excuses the take", () => {
  // CI: an executor cut off for 3.2 s (TTL 3 s); its first answer after the cut still listed the
  // shards the leader had moved meanwhile (the answering instance's picture had not shown the
  // move yet), the next one, 516 ms later, took them.
  const events = [hb(0, ["1", "4"]), hb(3_700, ["1", "4"]), hb(4_216, [])];
  assert.deepEqual(shards(events), ["1", "4"], "exclusive answers are never behind their record");
  const lagging = { ...OPTIONS, laggingAnswers: new Set(["n"]) };
  assert.deepEqual(judgeTakes(events, lagging).map((t) => t.verdict), ["gap", "gap"]);
  // Only a gap within the window before the take: answered throughout since, it is needless.
  const later = [hb(0, ["1"]), hb(3_700, ["1"]), hb(4_216, ["1"]), hb(4_716, [])];
  assert.deepEqual(findNeedlessMoves(later, lagging).map((m) => m.shard), ["1"]);
  assert.deepEqual(
    findNeedlessMoves(events, { ...lagging, laggingAnswers: new Set(["m"]) }).length,
    2,
  );
});

Deno.test("a drained shard, a quarantined one, and a leaving executor are excused", () => {
  const drain: ChaosEvent = { type: "drain", at: 400, namespace: "n", shard: "1" };
  assert.deepEqual(shards([hb(0, ["1"]), drain, hb(500, [])]), []);
  assert.deepEqual(shards([hb(0, ["1"]), hb(500, [], { quarantined: ["1"] })]), []);
  assert.deepEqual(shards([hb(0, ["1"]), hb(500, [], { status: "DRAINING" })]), []);
  assert.deepEqual(shards([hb(0, ["1"], { status: "DRAINING" }), hb(500, [])]), []);
  // A drain after the move does not excuse it.
  const later: ChaosEvent = { type: "drain", at: 600, namespace: "n", shard: "1" };
  assert.deepEqual(shards([hb(0, ["1"]), hb(500, []), later]), ["1"]);
});

Deno.test("executors and namespaces are judged apart, in answer order", () => {
  const events = [
    hb(500, [], { executor: "f" }),
    hb(0, ["1"], { executor: "f" }),
    hb(0, ["1"], { namespace: "m" }),
    hb(500, ["1"]),
  ];
  const moves = findNeedlessMoves(events, OPTIONS);
  assert.deepEqual(moves.map((m) => [m.executor, m.namespace, m.shard]), [["f", "n", "1"]]);
});

Deno.test("only moves within the checked period count", () => {
  const events = [hb(0, ["1"]), hb(500, [])];
  assert.deepEqual(findNeedlessMoves(events, { ...OPTIONS, from: 600 }), []);
  assert.deepEqual(findNeedlessMoves(events, { ...OPTIONS, until: 400 }), []);
});

Deno.test("a window that is not positive is refused", () => {
  assert.throws(() => findNeedlessMoves([], { ...OPTIONS, windowMs: 0 }), RangeError);
});

Deno.test("every take gets a verdict: why it is excused, or needless", () => {
  const drain: ChaosEvent = { type: "drain", at: 900, namespace: "n", shard: "3" };
  const events = [
    hb(0, ["1", "2", "3"]),
    hb(500, ["2", "3"]), // 1: balancing
    drain,
    hb(1_000, ["2"]), // 3: drain
    hb(1_500, [], { status: "DRAINING" }), // 2: leaving
    hb(2_000, ["4"]),
    hb(4_000, []), // 4: gap
    hb(4_500, ["5"]),
    hb(5_000, []), // 5: needless
  ];
  assert.deepEqual(
    judgeTakes(events, OPTIONS).map((t) => `${t.shard}:${t.verdict}`),
    ["1:balancing", "3:drain", "2:leaving", "4:gap", "5:needless"],
  );
});
