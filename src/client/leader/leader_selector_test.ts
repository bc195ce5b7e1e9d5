import assert from "node:assert/strict";
import { recordingLogger, recordingMeter } from "../common/_recording_telemetry.ts";
import type { HeartbeatTransport } from "../executor/transport.ts";
import { FakeService, fakeTime } from "../executor/_testing.ts";
import { leaderSelector } from "./leader_selector.ts";
import type { LeaderEvent, LeaderSelectorOptions, TakeLeadership } from "./types.ts";

interface TermRecord {
  node: string;
  token: string;
  start: number;
  end?: number;
  reason?: unknown;
}

/** Selectors on fake time sharing one fake service; each node's link can be cut. */
function cluster(serviceShards: string[] = ["0"]) {
  const { time, clock } = fakeTime();
  const service = new FakeService({ shards: serviceShards, ttlMs: 2_000, now: clock.now });
  const terms: TermRecord[] = [];
  const cut = new Set<string>();
  const link = (node: string): HeartbeatTransport => ({
    heartbeat: (request, options) =>
      cut.has(node)
        ? Promise.reject(new Error("14 UNAVAILABLE"))
        : service.heartbeat(request, options),
    close() {},
  });
  /** takeLeadership that runs until aborted, or `returnAfterMs`. */
  const holder =
    (node: string, returnAfterMs?: number): TakeLeadership => async (signal, lease) => {
      const term: TermRecord = { node, token: lease.fencingToken, start: time.now };
      terms.push(term);
      await new Promise<void>((resolve) => {
        signal.addEventListener("abort", () => resolve(), { once: true });
        if (returnAfterMs !== undefined) clock.setTimeout(resolve, returnAfterMs);
      });
      term.end = time.now;
      term.reason = signal.aborted ? signal.reason : "returned";
    };
  const start = (node: string, over: Partial<LeaderSelectorOptions> = {}) =>
    leaderSelector({
      addresses: "unused:1",
      namespace: "leader",
      name: node,
      takeLeadership: holder(node),
      transport: link(node),
      clock,
      ...over,
    });
  const leaders = () => terms.filter((t) => t.end === undefined).map((t) => t.node);
  /** No two terms overlap in time. */
  const assertExclusive = () => {
    const sorted = [...terms].sort((a, b) => a.start - b.start);
    for (let i = 1; i < sorted.length; i++) {
      const prev = sorted[i - 1]!;
      assert.ok(prev.end !== undefined && prev.end <= sorted[i]!.start, JSON.stringify(sorted));
      assert.ok(BigInt(prev.token) <= BigInt(sorted[i]!.token), "tokens never go back");
    }
  };
  const settle = async (promise: Promise<unknown>) => {
    let done = false;
    void promise.then(() => done = true);
    for (let i = 0; i < 1_000 && !done; i++) await time.tickAsync(50);
    await promise;
  };
  return { time, clock, service, terms, cut, holder, start, leaders, assertExclusive, settle };
}

Deno.test("one of three selectors leads; closing it hands leadership over without overlap", async () => {
  const c = cluster();
  const nodes = ["a", "b", "c"].map((n) => c.start(n));
  await c.time.tickAsync(1_000);
  assert.equal(c.leaders().length, 1);
  assert.equal(nodes.filter((n) => n.hasLeadership).length, 1);
  const first = c.terms[0]!;
  const leader = nodes.find((n) => n.hasLeadership)!;
  await c.settle(leader.close());
  assert.ok(first.end !== undefined && first.reason instanceof Error, "aborted by close");
  await c.time.tickAsync(1_000);
  assert.equal(c.leaders().length, 1);
  assert.notEqual(c.leaders()[0], first.node);
  assert.ok(BigInt(c.terms[1]!.token) > BigInt(first.token), "the fencing token grows");
  c.assertExclusive();
  for (const n of nodes) await c.settle(n.close());
  assert.deepEqual(c.leaders(), []);
});

Deno.test("returning from takeLeadership gives leadership up; autoRequeue rejoins with a fresh id", async () => {
  const c = cluster();
  const a = c.start("a", { takeLeadership: c.holder("a", 2_000), autoRequeue: true });
  const events: LeaderEvent[] = [];
  void (async () => {
    for await (const e of a.events()) events.push(e);
  })();
  await c.time.tickAsync(500);
  const firstId = a.participantId;
  assert.ok(a.hasLeadership);
  const b = c.start("b");
  await c.time.tickAsync(2_000);
  assert.deepEqual(c.leaders(), ["b"], "b took over after a returned");
  assert.deepEqual(c.terms.map((t) => t.node), ["a", "b"]);
  assert.equal(c.terms[0]!.reason, "returned");
  await c.time.tickAsync(1_000);
  assert.ok(a.participantId !== undefined && a.participantId !== firstId, "a rejoined");
  assert.deepEqual(events.map((e) => e.type), [
    "candidate",
    "leading",
    "not-leading",
    "candidate",
  ]);
  await c.settle(b.close());
  await c.time.tickAsync(1_000);
  assert.deepEqual(c.leaders(), ["a"], "the requeued node leads again");
  c.assertExclusive();
  await c.settle(a.close());
});

Deno.test("without autoRequeue a node leaves the election after its term; requeue() rejoins", async () => {
  const c = cluster();
  const a = c.start("a", { takeLeadership: c.holder("a", 1_000) });
  await c.time.tickAsync(3_000);
  assert.equal(c.terms.length, 1);
  assert.equal(a.participantId, undefined, "out of the election");
  assert.deepEqual(c.service.owners.size, 0, "nobody else asked: the shard waits");
  assert.equal(a.requeue(), true);
  assert.equal(a.requeue(), false, "already a candidate");
  await c.time.tickAsync(500);
  assert.equal(c.terms.length, 2);
  await c.settle(a.close());
  assert.throws(() => a.requeue(), /closed/);
});

Deno.test("a node cut off from the service suspends before another can lead, and leads again later", async () => {
  const c = cluster();
  const a = c.start("a", { autoRequeue: true });
  await c.time.tickAsync(500);
  const b = c.start("b", { autoRequeue: true });
  await c.time.tickAsync(500);
  assert.deepEqual(c.leaders(), ["a"]);
  c.cut.add("a");
  await c.time.tickAsync(1_000);
  assert.deepEqual(c.leaders(), [], "a suspended within suspendAfterMs");
  assert.equal(c.terms[0]!.end! - 1_000 <= 1_000, true);
  await c.time.tickAsync(2_000);
  assert.deepEqual(c.leaders(), ["b"], "b leads once the service expired a");
  c.cut.delete("a");
  await c.settle(b.close());
  await c.time.tickAsync(1_000);
  assert.deepEqual(c.leaders(), ["a"], "a is still a candidate and leads again");
  c.assertExclusive();
  await c.settle(a.close());
});

Deno.test("a namespace with more than one shard is reported and never led", async () => {
  const c = cluster(["0", "1"]);
  const a = c.start("a");
  const errors: LeaderEvent[] = [];
  void (async () => {
    for await (const e of a.events()) if (e.type === "error") errors.push(e);
  })();
  await c.time.tickAsync(1_000);
  assert.ok(errors.length > 0);
  assert.match(String(errors[0]?.type === "error" && errors[0].error.message), /shardNum: 1/);
  await c.settle(a.close());
});

Deno.test("leader selector options are checked up front", () => {
  const base = { addresses: "x:1", namespace: "leader", takeLeadership: () => {} };
  assert.throws(() => leaderSelector({ ...base, suspendAfterMs: 0 }), /suspendAfterMs/);
  assert.throws(
    () => leaderSelector({ ...base, suspendAfterMs: 500, heartbeatIntervalMs: 500 }),
    /below suspendAfterMs/,
  );
  assert.throws(() => leaderSelector({ ...base, namespace: "" }), /namespace/);
});

Deno.test("the logger and the meter reach the selector's executor", async () => {
  const { logger, lines } = recordingLogger();
  const { meter, measurements } = recordingMeter();
  const { time, clock } = fakeTime();
  const selector = leaderSelector({
    addresses: "unused:1",
    namespace: "leader",
    takeLeadership: () => new Promise(() => {}),
    transport: { heartbeat: () => Promise.reject(new Error("down")), close() {} },
    clock,
    logger,
    meter,
  });
  await time.tickAsync(2_000);
  assert.deepEqual(lines.map((l) => l.level), ["warn"]);
  assert.ok(measurements.some((m) => m.name === "shard_manager.sdk.heartbeat.failures"));
  const closing = selector.close();
  await time.tickAsync(10_000);
  await closing;
});
