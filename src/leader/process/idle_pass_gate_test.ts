import { reportsFrom } from "../../core/shared_reports.ts";
import assert from "node:assert/strict";
import { NamespaceState } from "../../state/namespace_state.ts";
import { IdlePassGate } from "./idle_pass_gate.ts";

const TTL = 1_000;
const RETENTION = 10_000;
const WALL = 1_700_000_000_000;

/** Executors "a" and "b" seen at monotonic time 0. */
function twoExecutors(): NamespaceState {
  const state = new NamespaceState("ns", { heartbeatTtlMs: TTL });
  state.apply({
    revision: 2,
    events: ["a", "b"].map((executorId) => ({
      type: "heartbeat" as const,
      executorId,
      record: { status: "ACTIVE" as const, timestampMs: WALL },
    })),
  }, 0);
  return state;
}

function idle(state: NamespaceState): { didWork: boolean; inputsVersion: number } {
  return { didWork: false, inputsVersion: state.inputsVersion };
}

Deno.test("IdlePassGate skips until an executor's liveness runs out", () => {
  const state = twoExecutors();
  const gate = new IdlePassGate(RETENTION);
  assert.equal(gate.canSkip(state, 100), false, "nothing planned yet");
  gate.passed(state, idle(state), 100);
  assert.equal(gate.canSkip(state, 999), true);
  assert.equal(gate.canSkip(state, 1_001), false, "a and b are stale after 1,000");
});

Deno.test("IdlePassGate keeps skipping past a deadline when every executor was heard in time", () => {
  const state = twoExecutors();
  const gate = new IdlePassGate(RETENTION);
  gate.passed(state, idle(state), 100);
  const refresh = (at: number, ...ids: string[]) =>
    state.apply({
      revision: at,
      events: ids.map((executorId) => ({
        type: "heartbeat" as const,
        executorId,
        record: { status: "ACTIVE" as const, timestampMs: WALL },
      })),
    }, at);
  refresh(900, "a", "b"); // renewals: no input changes, the deadline computed at 100 passes
  assert.equal(gate.canSkip(state, 1_001), true, "both still alive at 1,001");
  refresh(1_500, "a"); // b is not renewed and turns stale after 1,900
  assert.equal(gate.canSkip(state, 1_800), true);
  assert.equal(gate.canSkip(state, 1_901), false, "b changed class: plan");
});

Deno.test("IdlePassGate ignores refreshes of live executors but not other changes", () => {
  const state = twoExecutors();
  const gate = new IdlePassGate(RETENTION);
  gate.passed(state, idle(state), 100);
  state.apply({
    revision: 3,
    events: [{
      type: "heartbeat",
      executorId: "a",
      record: { status: "ACTIVE", timestampMs: WALL },
    }],
  }, 200);
  assert.equal(gate.canSkip(state, 300), true, "a refresh changes nothing a pass reads");
  state.apply({
    revision: 4,
    events: [{
      type: "reports",
      executorId: "a",
      reports: reportsFrom({ "0": { status: "READY", load: 3 } }),
    }],
  }, 300);
  assert.equal(gate.canSkip(state, 400), false, "new loads may call for a move");
  gate.passed(state, idle(state), 400);
  state.apply({
    revision: 5,
    events: [{
      type: "heartbeat",
      executorId: "b",
      record: { status: "DRAINING", timestampMs: WALL },
    }],
  }, 500);
  assert.equal(gate.canSkip(state, 600), false, "a status change is an input");
});

Deno.test("IdlePassGate never skips after a pass that did work", () => {
  const state = twoExecutors();
  const gate = new IdlePassGate(RETENTION);
  gate.passed(state, { didWork: true, inputsVersion: state.inputsVersion }, 100);
  assert.equal(gate.canSkip(state, 200), false);
});

Deno.test("IdlePassGate wakes when a stale executor's retention runs out", () => {
  const state = twoExecutors();
  const gate = new IdlePassGate(RETENTION);
  // b refreshes, a does not: a is stale from 1,000 and forgettable from 10,000.
  state.apply({
    revision: 3,
    events: [{
      type: "heartbeat",
      executorId: "b",
      record: { status: "ACTIVE", timestampMs: WALL },
    }],
  }, 5_000);
  gate.passed(state, idle(state), 5_500);
  assert.equal(gate.canSkip(state, 5_999), true);
  assert.equal(gate.canSkip(state, 6_001), false, "b is stale after 6,000");
  gate.passed(state, idle(state), 6_500);
  assert.equal(gate.canSkip(state, 9_999), true);
  assert.equal(gate.canSkip(state, 10_001), false, "a may be forgotten after 10,000");
});

Deno.test("IdlePassGate does not carry over to a state planned with an older version", () => {
  const state = twoExecutors();
  const gate = new IdlePassGate(RETENTION);
  const before = idle(state);
  state.apply({ revision: 3, events: [{ type: "drained", shardKey: "1", drained: true }] }, 50);
  gate.passed(state, before, 100);
  assert.equal(gate.canSkip(state, 200), false, "a change during the pass is not yet planned");
});

Deno.test("IdlePassGate wakes when the plan asked to be run again (a lease running out)", () => {
  const state = twoExecutors();
  const gate = new IdlePassGate(RETENTION);
  gate.passed(state, { ...idle(state), wakeAtMs: 600 }, 100);
  assert.equal(gate.canSkip(state, 599), true);
  assert.equal(gate.canSkip(state, 600), false);
});
