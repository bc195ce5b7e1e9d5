import assert from "node:assert/strict";
import { check, type CheckOptions } from "./checker.ts";
import type { ChaosEvent, Ownership } from "./events.ts";

const start = (at: number, executor: string, shard = "0", token = String(at), ns = "n") =>
  ({ type: "start", at, process: `p-${executor}`, executor, namespace: ns, shard, token }) as const;
const stop = (at: number, executor: string, shard = "0", ns = "n") =>
  ({ type: "stop", at, process: `p-${executor}`, executor, namespace: ns, shard }) as const;

function options(ownership: Ownership, extra: Partial<CheckOptions> = {}): CheckOptions {
  return {
    namespaces: [{ name: "n", ownership, shards: ["0"] }],
    boundMs: 1_000,
    from: 0,
    until: 10_000,
    ...extra,
  };
}

Deno.test("two executors running one shard at once is a violation in an exclusive namespace", () => {
  const events: ChaosEvent[] = [start(0, "a"), start(500, "b"), stop(700, "a")];
  const result = check(events, options("exclusive"));
  assert.equal(result.overlaps.length, 1);
  const [overlap] = result.overlaps;
  assert.deepEqual(overlap!.executors, ["a", "b"]);
  assert.equal(overlap!.ms, 200);
  assert.equal(overlap!.allowed, false);
  assert.deepEqual(result.violations.map((v) => v.rule), ["overlap"]);
});

Deno.test("the same overlap in an available namespace is counted but allowed", () => {
  const events: ChaosEvent[] = [start(0, "a"), start(500, "b"), stop(700, "a")];
  const result = check(events, options("available"));
  assert.equal(result.overlaps.length, 1);
  assert.equal(result.overlaps[0]!.allowed, true);
  assert.deepEqual(result.violations, []);
});

Deno.test("a stop and a start in the same millisecond do not overlap", () => {
  const result = check([start(0, "a"), stop(500, "a"), start(500, "b")], options("exclusive"));
  assert.deepEqual(result.overlaps, []);
  assert.deepEqual(result.violations, []);
});

Deno.test("an overlap of one millisecond is found", () => {
  const result = check([start(0, "a"), start(500, "b"), stop(501, "a")], options("exclusive"));
  assert.equal(result.overlaps.length, 1);
  assert.equal(result.overlaps[0]!.ms, 1);
});

Deno.test("a processor still running at the end overlaps a later one", () => {
  const result = check([start(0, "a"), start(9_000, "b")], options("exclusive"));
  assert.equal(result.overlaps.length, 1);
  assert.equal(result.overlaps[0]!.to, 10_000);
});

Deno.test("a stop synthesised for a dead process ends the run", () => {
  const events: ChaosEvent[] = [
    start(0, "a"),
    { ...stop(400, "a"), cause: "exit" },
    start(900, "b"),
  ];
  assert.deepEqual(check(events, options("exclusive")).overlaps, []);
});

Deno.test("overlaps are per shard and per namespace", () => {
  const events: ChaosEvent[] = [
    start(0, "a", "0"),
    start(10, "b", "1"),
    start(20, "c", "0", "30", "m"),
  ];
  const result = check(events, {
    ...options("exclusive"),
    namespaces: [
      { name: "n", ownership: "exclusive", shards: ["0", "1"] },
      { name: "m", ownership: "exclusive", shards: ["0"] },
    ],
  });
  assert.deepEqual(result.overlaps, []);
});

Deno.test("three owners at once give an overlap per pair", () => {
  const events: ChaosEvent[] = [start(0, "a"), start(10, "b"), start(20, "c")];
  const result = check(events, options("exclusive"));
  assert.deepEqual(result.overlaps.map((o) => o.executors.join("+")), ["a+b", "a+c", "b+c"]);
  assert.equal(result.violations.length, 3);
});

Deno.test("a restart of the same executor is not an overlap, and a duplicate start is ignored", () => {
  const events: ChaosEvent[] = [start(0, "a"), start(5, "a"), stop(100, "a"), start(100, "a")];
  const result = check(events, options("exclusive"));
  assert.deepEqual(result.overlaps, []);
});

Deno.test("an overlap with a frozen first owner is allowed only with a greater fencing token", () => {
  const paused: ChaosEvent[] = [
    start(0, "a", "0", "10"),
    { type: "pause", at: 100, process: "p-a" },
    { type: "resume", at: 5_000, process: "p-a" },
    stop(5_050, "a"),
  ];
  const fenced = check([...paused, start(3_000, "b", "0", "20")], options("exclusive"));
  assert.equal(fenced.overlaps[0]!.ownerPaused, true);
  assert.equal(fenced.overlaps[0]!.fenced, true);
  assert.deepEqual(fenced.violations, []);
  const stale = check([...paused, start(3_000, "b", "0", "5")], options("exclusive"));
  assert.deepEqual(stale.violations.map((v) => v.rule), ["overlap"]);
});

Deno.test("a shard unowned for longer than the bound is a violation", () => {
  const events: ChaosEvent[] = [start(0, "a"), stop(1_000, "a"), start(2_500, "b")];
  const result = check(events, options("available"));
  assert.deepEqual(result.gaps.map((g) => [g.from, g.to, g.ms]), [[1_000, 2_500, 1_500]]);
  assert.deepEqual(result.violations.map((v) => v.rule), ["reassignment"]);
});

Deno.test("a gap within the bound is measured, not a violation", () => {
  const events: ChaosEvent[] = [start(0, "a"), stop(1_000, "a"), start(1_800, "b")];
  const result = check(events, options("available"));
  assert.equal(result.gaps[0]!.ms, 800);
  assert.deepEqual(result.violations, []);
});

Deno.test("a shard still unowned at the end is a violation once the bound passed", () => {
  const late = check([start(0, "a"), stop(8_000, "a")], options("available"));
  assert.equal(late.gaps[0]!.open, true);
  assert.deepEqual(late.violations.map((v) => v.rule), ["reassignment"]);
  const recent = check([start(0, "a"), stop(9_500, "a")], options("available"));
  assert.equal(recent.gaps[0]!.open, true);
  assert.deepEqual(recent.violations, []);
});

Deno.test("time without an etcd quorum does not count against the bound", () => {
  const events: ChaosEvent[] = [
    start(0, "a"),
    stop(1_000, "a"),
    { type: "quorum", at: 1_200, available: false },
    { type: "quorum", at: 4_000, available: true },
    start(4_900, "b"),
  ];
  const result = check(events, options("available"));
  assert.equal(result.gaps[0]!.countFrom, 4_000);
  assert.equal(result.gaps[0]!.ms, 900);
  assert.deepEqual(result.violations, []);
});

Deno.test("a gap while etcd is still without a quorum at the end is not counted", () => {
  const events: ChaosEvent[] = [
    start(0, "a"),
    stop(1_000, "a"),
    { type: "quorum", at: 1_200, available: false },
  ];
  assert.deepEqual(check(events, options("available")).violations, []);
});

Deno.test("a drained shard is not expected back, and must not run after the bound", () => {
  const drained: ChaosEvent[] = [
    start(0, "a"),
    { type: "drain", at: 1_000, namespace: "n", shard: "0" },
    stop(1_300, "a"),
  ];
  assert.deepEqual(check(drained, options("available")).violations, []);
  const revived = check([...drained, start(5_000, "b")], options("available"));
  assert.deepEqual(revived.violations.map((v) => v.rule), ["drained-owned"]);
});

Deno.test("gaps before the checked period are ignored", () => {
  const result = check([start(3_000, "a")], options("available", { from: 3_000 }));
  assert.deepEqual(result.gaps, []);
});

Deno.test("bad options are refused", () => {
  assert.throws(() => check([], options("available", { boundMs: 0 })), RangeError);
  assert.throws(() => check([], options("available", { from: 5, until: 1 })), RangeError);
});

/** An answered heartbeat of executor `executor` in namespace `n` giving it `assigned`. */
const answered = (at: number, executor: string, assigned: string[], ns = "n") =>
  ({
    type: "heartbeat",
    at,
    sentAt: at - 3,
    process: `p-${executor}`,
    executor,
    namespace: ns,
    ok: true,
    assigned,
  }) as const;

Deno.test("an etcd pause that takes every shard from executors that kept heartbeating is a violation", () => {
  // The case of issue 42: etcd paused from 1 s to 7 s; both executors' heartbeats are answered
  // every 500 ms throughout (from the instances' caches), yet at 7.5 s every shard has moved.
  const events: ChaosEvent[] = [
    start(0, "a", "0"),
    start(0, "a", "1"),
    start(0, "b", "2"),
    { type: "fault", at: 1_000, kind: "etcd-pause", target: "all", phase: "inject" },
    { type: "fault", at: 7_000, kind: "etcd-pause", target: "all", phase: "heal" },
  ];
  for (let at = 500; at <= 7_000; at += 500) {
    events.push(answered(at, "a", ["0", "1"]), answered(at + 10, "b", ["2"]));
  }
  events.push(answered(7_500, "a", ["2"]), answered(7_510, "b", ["0", "1"]));
  const result = check(events, {
    namespaces: [{ name: "n", ownership: "available", shards: ["0", "1", "2"] }],
    boundMs: 1_000,
    from: 0,
    until: 10_000,
    heartbeatWindowMs: 1_000,
  });
  assert.deepEqual(
    result.needlessMoves.map((m) => `${m.executor}:${m.shard}`),
    ["a:0", "a:1", "b:2"],
  );
  assert.deepEqual(result.violations.map((v) => v.rule), [
    "needless-move",
    "needless-move",
    "needless-move",
  ]);
  assert.match(result.violations[0]!.message, /taken from a although its heartbeats were answered/);
  // Without a window, the needless-move rule is not checked.
  const unchecked = check(events, {
    namespaces: [{ name: "n", ownership: "available", shards: ["0", "1", "2"] }],
    boundMs: 1_000,
    from: 0,
    until: 10_000,
  });
  assert.deepEqual(unchecked.violations, []);
});

Deno.test("the same moves after the executors' heartbeats failed for a while are not needless", () => {
  const events: ChaosEvent[] = [start(0, "a", "0"), start(0, "a", "1")];
  for (let at = 500; at <= 1_000; at += 500) events.push(answered(at, "a", ["0", "1"]));
  for (let at = 2_000; at <= 6_000; at += 1_000) {
    events.push({ ...answered(at, "a", []), ok: false, error: "DEADLINE_EXCEEDED" });
  }
  events.push(answered(6_500, "a", []));
  const result = check(events, {
    namespaces: [{ name: "n", ownership: "available", shards: ["0", "1"] }],
    boundMs: 10_000,
    from: 0,
    until: 10_000,
    heartbeatWindowMs: 1_000,
  });
  assert.deepEqual(result.needlessMoves, []);
});
