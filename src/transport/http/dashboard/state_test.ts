import assert from "node:assert/strict";
import type { ExecutorStateView, NamespaceInfo } from "../../../routing/views.ts";
import { ownerColour } from "../../../../packages/dashboard_browser/colour.js";
import { buildDashboardState, type DashboardInput } from "./state.ts";

const HEALTH = { storeReachable: true, synced: true, ready: true, checkedAtMs: 5 };

function executor(id: string, shards: [string, number][], extra = {}): ExecutorStateView {
  return {
    executorId: id,
    status: "ACTIVE",
    lastHeartbeatMs: 1_000,
    metadata: { address: `${id}:1` },
    assignedShards: shards.map(([shardKey, load]) => ({ shardKey, load, assignedRevision: 3 })),
    drainedBy: [],
    heartbeatAgeMs: 120,
    alive: true,
    liveness: "alive",
    totalLoad: shards.reduce((sum, [, load]) => sum + load, 0),
    ...extra,
  };
}

function input(namespace: NamespaceInfo, more: Partial<DashboardInput> = {}): DashboardInput {
  return {
    namespace,
    instanceId: "inst-1",
    allowActions: true,
    nowMs: 9_000,
    executors: [],
    executorDrains: [],
    drainedShards: [],
    leader: { instanceId: "inst-2", term: 4, sinceMs: 100, checkedAtMs: 8_900 },
    health: HEALTH,
    ...more,
  };
}

const FIXED: NamespaceInfo = { name: "ns", type: "fixed", shardNum: 6, mode: "onboarded" };

Deno.test("a fixed namespace maps every shard to its owner index, load and colour", () => {
  const state = buildDashboardState(input(FIXED, {
    executors: [
      executor("a", [["0", 1], ["2", 4]]),
      executor("b", [["1", 2]], {
        alive: false,
        liveness: "stale",
        drainedBy: ["id:b"],
        status: "DRAINING",
      }),
    ],
    drainedShards: ["5", "4"],
    version: 12,
  }));
  assert.deepEqual(state.shards, {
    keys: ["0", "1", "2", "3", "4", "5"],
    owners: [0, 1, 0, -1, -1, -1],
    loads: [1, 2, 4, 0, 0, 0],
    total: 6,
  });
  assert.deepEqual(state.summary, {
    executors: 2,
    alive: 1,
    unknown: 0,
    shards: 6,
    owned: 3,
    drained: 2,
    quarantined: 0,
    unowned: 1,
    notRunning: 0,
    handovers: 0,
    totalLoad: 7,
    maxShardLoad: 4,
  });
  assert.deepEqual(state.drainedShards, ["4", "5"]);
  assert.deepEqual(state.handovers, []);
  assert.equal(state.version, 12);
  assert.deepEqual(state.executors[1], {
    executorId: "b",
    status: "DRAINING",
    alive: false,
    liveness: "stale",
    heartbeatAgeMs: 120,
    totalLoad: 2,
    shardCount: 1,
    drainedBy: ["id:b"],
    metadata: { address: "b:1" },
    colour: ownerColour(1),
  });
  assert.equal(state.leader.instanceId, "inst-2");
  assert.equal(state.generatedAtMs, 9_000);
  assert.equal(state.instanceId, "inst-1");
  assert.equal(state.allowActions, true);
});

Deno.test("an ephemeral namespace maps the shards owned or drained, in routing order", () => {
  const state = buildDashboardState(input(
    { name: "eph", type: "ephemeral", shardNum: 0, mode: "onboarded" },
    {
      executors: [executor("a", [["b", 1], ["10", 1]]), executor("c", [["2", 1]])],
      drainedShards: ["a"],
    },
  ));
  assert.deepEqual(state.shards.keys, ["2", "10", "a", "b"]);
  assert.deepEqual(state.shards.owners, [1, 0, -1, 0]);
  assert.equal(state.summary.unowned, 0);
  assert.equal(state.summary.shards, 4);
  assert.equal("version" in state, false);
});

Deno.test("a large namespace's map is cut at maxShards but counts stay whole", () => {
  const big: NamespaceInfo = { name: "big", type: "fixed", shardNum: 1_000_000, mode: "onboarded" };
  const state = buildDashboardState(
    input(big, { executors: [executor("a", [["0", 1], ["999999", 1]])] }),
    { maxShards: 10 },
  );
  assert.equal(state.shards.keys.length, 10);
  assert.equal(state.shards.total, 1_000_000);
  assert.equal(state.summary.unowned, 999_998);
  assert.equal(state.summary.owned, 2);
});

Deno.test("executor drains become rows with their target and matches", () => {
  const state = buildDashboardState(input(FIXED, {
    executorDrains: [
      {
        drain: { id: "id:a", executorId: "a", reason: "disk", createdAtMs: 7 },
        matched: ["a"],
      },
      {
        drain: { id: "selector:zone=b", selector: { zone: "b" }, reason: "", createdAtMs: 8 },
        matched: [],
      },
    ],
  }));
  assert.deepEqual(state.executorDrains, [
    { id: "id:a", executorId: "a", reason: "disk", createdAtMs: 7, matched: ["a"] },
    { id: "selector:zone=b", selector: { zone: "b" }, reason: "", createdAtMs: 8, matched: [] },
  ]);
});

Deno.test("a drained shard still owned during handover is counted once", () => {
  const state = buildDashboardState(input(FIXED, {
    executors: [executor("a", [["0", 1]])],
    drainedShards: ["0"],
  }));
  assert.equal(state.summary.owned, 1);
  assert.equal(state.summary.drained, 1);
  assert.equal(state.summary.unowned, 5);
});

Deno.test("the summary counts owned shards whose live owner does not run them", () => {
  const state = buildDashboardState(input(FIXED, {
    executors: [
      { ...executor("a", [["0", 1], ["2", 4]]), notRunningShards: 2 },
      { ...executor("b", [["1", 2]]), notRunningShards: 0 },
    ],
  }));
  assert.equal(state.summary.notRunning, 2);
  assert.equal(state.summary.owned, 3);
});

Deno.test("the picture lists the warm handovers in flight, with their total", () => {
  const item = { shardKey: "1", from: "a", to: "b", sinceMs: 5, prepared: true };
  const state = buildDashboardState(
    {
      namespace: { name: "ns", type: "fixed", shardNum: 2, mode: "onboarded" },
      instanceId: "i",
      allowActions: false,
      nowMs: 10,
      executors: [],
      executorDrains: [],
      drainedShards: [],
      handovers: { total: 3, items: [item] },
      leader: { instanceId: null, term: 0 },
      health: { ready: true, storeReachable: true },
    } as unknown as Parameters<typeof buildDashboardState>[0],
  );
  assert.equal(state.summary.handovers, 3);
  assert.deepEqual(state.handovers, [item]);
});
