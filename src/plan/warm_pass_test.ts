import assert from "node:assert/strict";
import type { Preparing } from "../core/assignment.ts";
import { reportsFrom } from "../core/shared_reports.ts";
import type { ShardReport } from "../core/types.ts";
import { loadBalancerFor } from "../loadbalancer/mod.ts";
import { NamespaceState } from "../state/namespace_state.ts";
import type { StoredExecutor } from "../store/store.ts";
import { leaseMarginMs } from "./handover_guard.ts";
import { type TestPassOptions, testPlan } from "./_testing.ts";

const TTL = 1_000;
const LEASE = 2_000;
const WALL = 1_700_000_000_000;
const TIMEOUT = 5_000;

interface Executor {
  status?: "ACTIVE" | "DRAINING";
  /** Sends warm_handover. @default {true} */
  warm?: boolean;
  /** Shards reported READY. */
  ready?: string[];
  /** Shards reported PREPARED. */
  prepared?: string[];
  revision?: number;
  applied?: number;
}

interface Picture {
  executors: Record<string, Executor>;
  owners: Record<string, string>;
  preparing?: Record<string, Preparing>;
  releasing?: Record<string, number>;
}

/** A state loaded at monotonic 0 (every executor seen then, every prepare since then). */
function stateOf(picture: Picture): NamespaceState {
  const state = new NamespaceState("ns", { heartbeatTtlMs: TTL });
  const executors = new Map<string, StoredExecutor>();
  let revision = 50;
  for (const [id, e] of Object.entries(picture.executors)) {
    const reports: Record<string, ShardReport> = {};
    for (const shard of e.ready ?? []) reports[shard] = { status: "READY", load: 1 };
    for (const shard of e.prepared ?? []) reports[shard] = { status: "PREPARED", load: 0 };
    const heartbeatRevision = e.revision ?? revision++;
    executors.set(id, {
      executorId: id,
      heartbeat: {
        status: e.status ?? "ACTIVE",
        timestampMs: WALL,
        appliedRevision: e.applied ?? heartbeatRevision - 1,
        ...(e.warm === false ? {} : { warmHandover: true }),
      },
      heartbeatRevision,
      metadata: {},
      reports: reportsFrom(reports),
    });
  }
  state.load(
    {
      revision: 100,
      executors,
      assignmentSeq: 1,
      owners: new Map(Object.entries(picture.owners)),
      assignedRevisions: new Map(Object.keys(picture.owners).map((s) => [s, 5])),
      assignmentTimes: new Map(),
      releasing: new Map(Object.entries(picture.releasing ?? {})),
      preparing: new Map(Object.entries(picture.preparing ?? {})),
      drained: new Set(),
      executorDrains: new Map(),
      requested: new Map(),
    },
    0,
    WALL,
  );
  return state;
}

function warm(options: Partial<TestPassOptions> = {}): TestPassOptions {
  return {
    balancer: loadBalancerFor("greedy"),
    maxMoves: 100,
    executorRetentionMs: 600_000,
    warm: { prepareTimeoutMs: TIMEOUT, maxPreparesPerExecutor: 32 },
    ...options,
  };
}

const TWO = { type: "fixed", shardNum: 2 } as const;
const FOUR = { type: "fixed", shardNum: 4 } as const;

Deno.test("warm handover: a balancing move to an executor that understands it starts as a prepare", () => {
  const state = stateOf({
    executors: { a: { ready: ["0", "1"] }, b: {} },
    owners: { "0": "a", "1": "a" },
  });
  const plan = testPlan(state, TWO, 10, warm());
  assert.deepEqual(plan.delta.assign, {}, "a keeps serving");
  assert.deepEqual(Object.values(plan.delta.prepare ?? {}).flat().length, 1);
  assert.deepEqual(Object.keys(plan.delta.prepare ?? {}), ["b"]);
  assert.equal(plan.handovers?.prepared, 1);
  // Without warm_handover, or with warm handover off, the move is made at once, as before.
  const cold = stateOf({
    executors: { a: { ready: ["0", "1"] }, b: { warm: false } },
    owners: { "0": "a", "1": "a" },
  });
  assert.equal(testPlan(cold, TWO, 10, warm()).delta.prepare, undefined);
  assert.equal(Object.values(testPlan(cold, TWO, 10, warm()).delta.assign).flat().length, 1);
  const { warm: _, ...withoutWarm } = warm();
  const off = testPlan(state, TWO, 10, withoutWarm);
  assert.equal(off.delta.prepare, undefined);
});

Deno.test("warm handover: the prepared incoming owner is switched in, keeping the announced token", () => {
  const state = stateOf({
    executors: { a: { ready: ["0", "1"] }, b: { prepared: ["1"] } },
    owners: { "0": "a", "1": "a" },
    preparing: { "1": { executor: "b", revision: 90 } },
  });
  const plan = testPlan(state, TWO, 10, warm());
  assert.deepEqual(plan.delta.assign, { b: ["1"] });
  assert.deepEqual(plan.delta.tokens, { "1": 90 });
  assert.equal(plan.handovers?.warm, 1);
  assert.equal(plan.moves, 1);
});

Deno.test("warm handover: an unprepared shard waits, then a balancing move is cancelled at the timeout", () => {
  const state = stateOf({
    executors: { a: { ready: ["0", "1"] }, b: {} },
    owners: { "0": "a", "1": "a" },
    preparing: { "1": { executor: "b", revision: 90 } },
  });
  const waiting = testPlan(state, TWO, 10, warm(), { heard: { a: 10, b: 10 } });
  assert.deepEqual(waiting.delta.assign, {});
  assert.equal(waiting.delta.unprepare, undefined);
  assert.equal(waiting.delta.prepare, undefined, "in flight: nothing more to prepare");
  assert.equal(waiting.wakeAtMs, TIMEOUT);
  const late = testPlan(state, TWO, TIMEOUT, warm(), { heard: { a: TIMEOUT, b: TIMEOUT } });
  assert.deepEqual(late.delta.unprepare, ["1"]);
  assert.deepEqual(late.delta.assign, {}, "the shard stays with a");
  assert.equal(late.handovers?.timedOut, 1);
});

Deno.test("warm handover: a move the old owner must make completes cold after the timeout", () => {
  const state = stateOf({
    executors: { a: { status: "DRAINING", ready: ["0", "1"] }, b: {} },
    owners: { "0": "a", "1": "a" },
    preparing: { "0": { executor: "b", revision: 90 }, "1": { executor: "b", revision: 90 } },
  });
  const heard = { heard: { a: TIMEOUT, b: TIMEOUT } };
  const plan = testPlan(state, TWO, TIMEOUT, warm(), heard);
  assert.deepEqual(plan.delta.assign, { b: ["0", "1"] });
  assert.deepEqual(plan.delta.tokens, { "0": 90, "1": 90 });
  assert.equal(plan.handovers?.cold, 2);
  assert.equal(plan.reasons?.drain, 2);
});

Deno.test("warm handover: the incoming owner takes the shard at once when the old owner is lost", () => {
  const state = stateOf({
    executors: { a: { ready: ["0", "1"] }, b: {} },
    owners: { "0": "a", "1": "a" },
    preparing: { "1": { executor: "b", revision: 90 } },
  });
  // a is not heard from after its TTL; b is.
  const plan = testPlan(state, TWO, 2 * TTL, warm(), { heard: { b: 2 * TTL } });
  assert.deepEqual(plan.delta.assign, { b: ["0", "1"] });
  assert.deepEqual(plan.delta.tokens, { "1": 90 });
  assert.equal(plan.handovers?.cold, 1);
});

Deno.test("warm handover: the move is cancelled when the incoming owner is lost or drains", () => {
  for (const b of [{ status: "DRAINING" as const }, { warm: false }]) {
    const state = stateOf({
      executors: { a: { ready: ["0", "1"] }, b },
      owners: { "0": "a", "1": "a" },
      preparing: { "1": { executor: "b", revision: 90 } },
    });
    const plan = testPlan(state, TWO, 10, warm());
    assert.deepEqual(plan.delta.unprepare, ["1"]);
    assert.deepEqual(plan.delta.assign, {});
    assert.equal(plan.handovers?.cancelled, 1);
  }
  const lost = stateOf({
    executors: { a: { ready: ["0", "1"] }, b: {} },
    owners: { "0": "a", "1": "a" },
    preparing: { "1": { executor: "b", revision: 90 } },
  });
  const plan = testPlan(lost, TWO, 2 * TTL, warm(), { heard: { a: 2 * TTL } });
  assert.deepEqual(plan.delta.unprepare, ["1"]);
  assert.deepEqual(plan.delta.assign, {});
});

Deno.test("warm handover: prepares per executor are capped, and prepares in flight use up the move budget", () => {
  const state = stateOf({
    executors: { a: { ready: ["0", "1", "2", "3"] }, b: {} },
    owners: { "0": "a", "1": "a", "2": "a", "3": "a" },
  });
  const capped = warm({ warm: { prepareTimeoutMs: TIMEOUT, maxPreparesPerExecutor: 1 } });
  assert.equal(
    Object.values(testPlan(state, FOUR, 10, capped).delta.prepare ?? {}).flat().length,
    1,
  );
  assert.equal(
    Object.values(testPlan(state, FOUR, 10, warm()).delta.prepare ?? {}).flat().length,
    2,
  );
  const inFlight = stateOf({
    executors: { a: { ready: ["0", "1", "2", "3"] }, b: {}, c: {} },
    owners: { "0": "a", "1": "a", "2": "a", "3": "a" },
    preparing: { "3": { executor: "b", revision: 90 } },
  });
  // Two moves allowed a pass, one in flight: one more starts.
  const plan = testPlan(inFlight, FOUR, 10, warm({ maxMoves: 2 }));
  assert.equal(Object.values(plan.delta.prepare ?? {}).flat().length, 1);
});

Deno.test("warm handover, exclusive: the prepared shard is released first, then switched once the old owner stopped", () => {
  const exclusive = warm({ exclusive: { leaseMs: LEASE } });
  const prepared = stateOf({
    executors: { a: { ready: ["0", "1"], revision: 60 }, b: { prepared: ["1"], revision: 61 } },
    owners: { "0": "a", "1": "a" },
    preparing: { "1": { executor: "b", revision: 55 } },
  });
  const release = testPlan(prepared, TWO, 10, exclusive);
  assert.deepEqual(release.delta.release, ["1"]);
  assert.deepEqual(release.delta.assign, {}, "never given to b while a may run it");
  const stopped = stateOf({
    executors: {
      a: { ready: ["0"], revision: 71, applied: 70 },
      b: { prepared: ["1"], revision: 72 },
    },
    owners: { "0": "a", "1": "a" },
    preparing: { "1": { executor: "b", revision: 55 } },
    releasing: { "1": 70 },
  });
  const plan = testPlan(stopped, TWO, 10, exclusive);
  assert.deepEqual(plan.delta.assign, { b: ["1"] });
  assert.deepEqual(plan.delta.tokens, { "1": 55 });
  assert.equal(plan.handovers?.warm, 1);
  // Lost: the lease must run out first.
  const lost = testPlan(prepared, TWO, 2 * TTL, exclusive, { heard: { b: 2 * TTL } });
  assert.deepEqual(lost.delta.assign, {});
  const expiry = LEASE + leaseMarginMs(LEASE) + 1;
  const after = testPlan(prepared, TWO, expiry, exclusive, { heard: { b: expiry } });
  assert.deepEqual(after.delta.assign, { b: ["0", "1"] });
});

Deno.test("warm handover: a namespace that turned replicated or warm-less calls prepares left in flight off", () => {
  const state = stateOf({
    executors: { a: { ready: ["0", "1"] }, b: {} },
    owners: { "0": "a", "1": "a" },
    preparing: { "1": { executor: "b", revision: 90 } },
  });
  const { warm: _, ...off } = warm();
  assert.deepEqual(testPlan(state, TWO, 10, off).delta.unprepare, ["1"]);
  const replicated = testPlan(state, TWO, 10, {
    ...off,
    replication: { replicas: 2, placement: "balanced", zoneKey: "zone", seed: 1 },
  });
  assert.deepEqual(replicated.delta.unprepare, ["1"]);
});
