import assert from "node:assert/strict";
import { recordingLogger, recordingMeter } from "../common/_recording_telemetry.ts";
import type { HeartbeatTransport } from "../executor/transport.ts";
import { FakeService, fakeTime } from "../executor/_testing.ts";
import { LeaderSelector, leaderSelector } from "./leader_selector.ts";
import { ShardManagerError } from "../common/errors.ts";
import type {
  LeaderEvent,
  LeaderSelectorOptions,
  LeadershipLease,
  TakeLeadership,
} from "./types.ts";

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

Deno.test("a namespace with more than one shard is refused at start and never led", async () => {
  const c = cluster(["0", "1"]);
  const selector = new LeaderSelector({
    addresses: "unused:1",
    namespace: "leader",
    name: "a",
    takeLeadership: c.holder("a"),
    transport: c.service,
    clock: c.clock,
  });
  const events: LeaderEvent[] = [];
  void (async () => {
    for await (const e of selector.events()) events.push(e);
  })();
  const outcome = selector.start().catch((e) => e);
  await c.time.tickAsync(0);
  // The answer that assigns both shards is refused; the selector closes (draining takes time).
  let error: unknown;
  void outcome.then((e) => error = e);
  for (let i = 0; i < 200 && error === undefined; i++) await c.time.tickAsync(50);
  assert.ok(error instanceof ShardManagerError, String(error));
  assert.equal(error.code, "INVALID_NAMESPACE");
  assert.match(
    error.message,
    /Namespace "leader" assigned shard "1": a leader selector needs a fixed namespace with shardNum: 1/,
  );
  assert.deepEqual(c.terms, [], "takeLeadership never ran");
  assert.ok(!events.some((e) => e.type === "leading"));
  assert.ok(events.some((e) => e.type === "error" && e.error.code === "INVALID_NAMESPACE"));
  await c.settle(selector.close());
  await assert.rejects(selector.start(), (e: ShardManagerError) => e.code === "CLOSED");
});

Deno.test("start resolves once the first heartbeat is answered; rejects at once on an unknown namespace", async () => {
  const c = cluster();
  const a = new LeaderSelector({
    addresses: "unused:1",
    namespace: "leader",
    takeLeadership: c.holder("a"),
    transport: c.service,
    clock: c.clock,
  });
  assert.equal(await a.start(), a);
  await c.settle(a.close());
  const missing = Object.assign(new Error('5 NOT_FOUND: Namespace "leadr" not found'), {
    code: 5,
    details: 'Namespace "leadr" not found',
  });
  const b = new LeaderSelector({
    addresses: "unused:1",
    namespace: "leadr",
    takeLeadership: c.holder("b"),
    transport: { heartbeat: () => Promise.reject(missing), close() {} },
    clock: c.clock,
  });
  const error = await b.start().catch((e) => e);
  assert.equal(error.code, "NAMESPACE_NOT_FOUND");
  assert.equal(c.time.countTimers(), 0, "closed: nothing left running");
});

Deno.test("leader selector options are checked up front", () => {
  const base = { addresses: "x:1", namespace: "leader", takeLeadership: () => {} };
  assert.throws(() => leaderSelector({ ...base, suspendAfterMs: 0 }), /suspendAfterMs/);
  assert.throws(
    () => leaderSelector({ ...base, suspendAfterMs: 500, heartbeatIntervalMs: 500 }),
    /below suspendAfterMs/,
  );
  assert.throws(() => leaderSelector({ ...base, namespace: "" }), /namespace/);
  assert.throws(
    () => new LeaderSelector({ ...base, addresses: "http://x:1" }),
    (e: ShardManagerError) => e.code === "INVALID_OPTIONS" && /without a scheme/.test(e.message),
  );
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

Deno.test("prepare warms the next leader before the handover: takeLeadership gets its value", async () => {
  const { time, clock } = fakeTime();
  const service = new FakeService({ shards: ["0"], manual: true, now: clock.now });
  service.owners.set("0", "old-leader");
  service.tokens.set("0", "50");
  const leases: LeadershipLease<string>[] = [];
  const selector = new LeaderSelector({
    addresses: "unused:1",
    namespace: "leader",
    transport: service,
    clock,
    prepare: (ctx) => `warmed for ${ctx.fencingToken}`,
    takeLeadership: async (signal, lease) => {
      leases.push(lease);
      await new Promise((resolve) => signal.addEventListener("abort", resolve, { once: true }));
    },
  });
  const started = selector.start();
  await time.tickAsync(0);
  await started;
  const id = selector.participantId!;
  const token = service.prepare("0", id);
  await time.tickAsync(300); // the next heartbeat (250 ms ± 10%)
  const reports = service.lastRequest(id)?.shardStatusReports;
  assert.equal(reports?.["0"]?.status, "SHARD_STATUS_PREPARED");
  assert.equal(selector.hasLeadership, false, "warmed up, not leading");
  service.handOver("0");
  await time.tickAsync(300);
  assert.equal(selector.hasLeadership, true);
  assert.equal(leases[0]?.prepared, `warmed for ${token}`);
  assert.equal(leases[0]?.fencingToken, token);
  const closed = selector.close();
  await time.tickAsync(10_000);
  await closed;
});
