import assert from "node:assert/strict";
import type { ExecutorStatus } from "../core/types.ts";
import { NamespaceState } from "../state/namespace_state.ts";
import type { StoredExecutor } from "../store/store.ts";
import { budgetExecutors, pendingHandoversOf } from "./budget_executors.ts";

const WALL = 1_700_000_000_000;

function stateOf(
  statuses: Record<string, ExecutorStatus>,
  owners: Record<string, string>,
  extra: {
    preparing?: Record<string, string>;
    releasing?: string[];
    drainedIds?: string[];
  } = {},
): NamespaceState {
  const state = new NamespaceState("ns", { heartbeatTtlMs: 10_000 });
  const executors = new Map<string, StoredExecutor>(
    Object.entries(statuses).map(([id, status]) => [id, {
      executorId: id,
      heartbeat: { status, timestampMs: WALL },
      heartbeatRevision: 2,
      metadata: {},
      reports: new Map(),
    }]),
  );
  state.load(
    {
      revision: 10,
      executors,
      assignmentSeq: 1,
      owners: new Map(Object.entries(owners)),
      assignedRevisions: new Map(Object.keys(owners).map((s) => [s, 5])),
      assignmentTimes: new Map(),
      releasing: new Map((extra.releasing ?? []).map((s) => [s, 6])),
      preparing: new Map(
        Object.entries(extra.preparing ?? {}).map((
          [s, executor],
        ) => [s, { executor, revision: 7 }]),
      ),
      drained: new Set(),
      executorDrains: new Map(
        (extra.drainedIds ?? []).map((id) => [`id:${id}`, {
          id: `id:${id}`,
          executorId: id,
          reason: "",
          createdAtMs: WALL,
        }]),
      ),
      requested: new Map(),
    },
    0,
    WALL,
  );
  return state;
}

Deno.test("executors leaving count as out, and a DRAINED one holding nothing has left", () => {
  const state = stateOf(
    { a: "ACTIVE", b: "DRAINING", c: "DRAINED", d: "DRAINED", e: "ACTIVE" },
    { "0": "a", "1": "b", "2": "c" },
    { drainedIds: ["e"] },
  );
  const byId = new Map(
    budgetExecutors(state, 0, (e) => e.executorId === "a").map((e) => [
      e.executorId,
      e,
    ]),
  );
  assert.deepEqual(byId.get("a"), {
    executorId: "a",
    alive: true,
    active: true,
    drained: false,
    matched: true,
  });
  assert.equal(byId.get("b")?.drained, true, "DRAINING is out");
  assert.equal(byId.get("b")?.alive, true);
  assert.equal(byId.get("c")?.drained, true, "DRAINED still holding a shard is out");
  assert.equal(byId.get("c")?.alive, true);
  assert.equal(byId.get("d")?.alive, false, "DRAINED holding nothing has left");
  assert.equal(byId.get("e")?.drained, true, "an operator drain is out");
  assert.equal(byId.get("e")?.active, true);
});

Deno.test("pending handovers are held shards prepared elsewhere or released", () => {
  const state = stateOf(
    { a: "ACTIVE", b: "ACTIVE" },
    { "0": "a", "1": "a", "2": "a", "3": "b" },
    { preparing: { "0": "b" }, releasing: ["1"] },
  );
  assert.equal(pendingHandoversOf(state, "a"), 2);
  assert.equal(pendingHandoversOf(state, "b"), 0);
});
