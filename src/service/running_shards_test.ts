import assert from "node:assert/strict";
import type { Heartbeat } from "../heartbeat/validate_heartbeat.ts";
import { NamespaceState } from "../state/namespace_state.ts";
import { applyEvents, putExecutor } from "../state/_testing.ts";
import type { Note } from "./not_running_notes.ts";
import { RunningShards } from "./running_shards.ts";

const EXCLUSIVE = {
  ownership: { mode: "exclusive", leaseMs: 2_000 },
  budgets: { heartbeatTtlMs: 2_000 },
} as const;

function heartbeat(reports: Heartbeat["reports"]): Heartbeat {
  return {
    namespace: "ns",
    executorId: "e1",
    status: "ACTIVE",
    reports,
    metadata: {},
    appliedRevision: 2,
  };
}

Deno.test("the instance an executor heartbeats to records its shards stopping and running again", () => {
  let t = 0;
  const clock = { now: () => t, monotonic: () => t };
  const view = new NamespaceState("ns", EXCLUSIVE.budgets);
  applyEvents(
    view,
    [{
      type: "assignment",
      seq: 1,
      delta: { assign: { e1: ["0", "1"] }, unassign: [], remove: [] },
    }],
    0,
    2,
  );
  const ready = new Map(
    [["0", { status: "READY", load: 0 }], ["1", { status: "READY", load: 0 }]] as const,
  );
  putExecutor(view, { executorId: "e1", appliedRevision: 2, reports: ready, seenAtMs: 0 });
  const running = new RunningShards(clock);
  const recorded: Note[] = [];
  const options = {
    namespaces: () => [{ name: "ns", policy: EXCLUSIVE, view }],
    time: () => ({ now: clock.monotonic(), wallNow: clock.now() }),
    record: (_ns: string, note: Note) => recorded.push(note),
    settleMs: 1_000,
    minGapMs: 0,
  };
  const beat = (reports: Heartbeat["reports"]) => {
    running.hear(heartbeat(reports));
    running.tick(options);
    t += 500;
  };
  for (let i = 0; i < 4; i++) beat(ready);
  assert.equal(recorded.length, 0);
  // The lease lapsed during a store stall: nothing recorded, its heartbeats still arrive here.
  for (let i = 0; i < 4; i++) beat(new Map());
  assert.deepEqual(recorded.map((n) => n.type), ["shards_not_running"]);
  assert.deepEqual(recorded[0]?.shardKeys, ["0", "1"]);
  const evidence = running.evidence({ name: "ns", policy: EXCLUSIVE })!;
  assert.equal(evidence.heard("e1")?.reports.size, 0);
  for (let i = 0; i < 4; i++) beat(ready);
  assert.deepEqual(recorded.map((n) => n.type), ["shards_not_running", "shards_running_again"]);
});

Deno.test("available namespaces are not judged", () => {
  const running = new RunningShards({ now: () => 0, monotonic: () => 0 });
  const policy = { ownership: { mode: "available" }, budgets: { heartbeatTtlMs: 2_000 } } as const;
  assert.equal(running.evidence({ name: "ns", policy }), undefined);
});
