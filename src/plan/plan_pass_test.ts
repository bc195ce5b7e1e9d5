import assert from "node:assert/strict";
import { reportsFrom } from "../core/shared_reports.ts";
import { isEmptyDelta, type ShardReport } from "../core/types.ts";
import { loadBalancerFor } from "../loadbalancer/mod.ts";
import { NamespaceState } from "../state/namespace_state.ts";
import type { StoredExecutor } from "../store/store.ts";
import { type TestPassOptions as PassOptions, testPlan as planPass } from "./_testing.ts";
import { fixedShardKeys } from "./shard_universe.ts";
import { applyEvents, putExecutorDrain, removeExecutorDrain } from "../state/_testing.ts";

const TTL = 1_000;
const WALL = 1_700_000_000_000;
const NOW = 100;

interface Picture {
  /** Executor id → how it is: ACTIVE or DRAINING and alive, or stale (an ancient heartbeat). */
  executors: Record<string, "ACTIVE" | "DRAINING" | "stale">;
  owners?: Record<string, string>;
  drained?: string[];
  requested?: Record<string, number>;
  reports?: Record<string, Record<string, ShardReport>>;
}

/** A namespace state loaded at monotonic time 0 (executors seen then, stale ones never). */
function stateOf(picture: Picture): NamespaceState {
  const state = new NamespaceState("ns", { heartbeatTtlMs: TTL });
  const executors = new Map<string, StoredExecutor>();
  for (const [id, how] of Object.entries(picture.executors)) {
    executors.set(id, {
      executorId: id,
      heartbeat: {
        status: how === "DRAINING" ? "DRAINING" : "ACTIVE",
        timestampMs: how === "stale" ? 0 : WALL,
      },
      heartbeatRevision: id.length + 20,
      metadata: {},
      reports: reportsFrom(picture.reports?.[id] ?? {}),
    });
  }
  state.load(
    {
      revision: 30,
      executors,
      assignmentSeq: 1,
      owners: new Map(Object.entries(picture.owners ?? {})),
      assignedRevisions: new Map(),
      assignmentTimes: new Map(),
      drained: new Set(picture.drained ?? []),
      executorDrains: new Map(),
      requested: new Map(Object.entries(picture.requested ?? {})),
    },
    0,
    WALL,
  );
  return state;
}

function options(name: "naive" | "greedy" = "naive", maxMoves = 0): PassOptions {
  return { balancer: loadBalancerFor(name), maxMoves, executorRetentionMs: 60_000 };
}

/** Shard → executor after applying the plan's delta to the state's owners. */
function ownersAfter(
  state: NamespaceState,
  plan: ReturnType<typeof planPass>,
): Map<string, string> {
  const owners = new Map(state.owned());
  for (const s of [...plan.delta.unassign, ...plan.delta.remove]) owners.delete(s);
  for (const [e, shards] of Object.entries(plan.delta.assign)) {
    for (const s of shards) owners.set(s, e);
  }
  return owners;
}

Deno.test("pass planner gives every shard of a fixed namespace an owner at first", () => {
  for (const name of ["naive", "greedy"] as const) {
    const state = stateOf({ executors: { a: "ACTIVE", b: "ACTIVE", c: "ACTIVE" } });
    const plan = planPass(state, { type: "fixed", shardNum: 10 }, NOW, options(name));
    const assigned = Object.values(plan.delta.assign).flat().sort((x, y) => +x - +y);
    assert.deepEqual(assigned, fixedShardKeys(10), name);
    const counts = Object.values(plan.delta.assign).map((s) => s.length).sort();
    assert.deepEqual(counts, [3, 3, 4], name);
    assert.deepEqual(plan.delta.unassign, []);
    assert.equal(plan.moves, 0, "assigning unowned shards is not a move");
  }
});

Deno.test("pass planner moves a stale executor's shards to live ones", () => {
  const owners = { "0": "c", "1": "c", "2": "a", "3": "b" };
  const state = stateOf({ executors: { a: "ACTIVE", b: "ACTIVE", c: "stale" }, owners });
  const plan = planPass(state, { type: "fixed", shardNum: 4 }, NOW, options());
  assert.deepEqual(Object.values(plan.delta.assign).flat().sort(), ["0", "1"]);
  const after = ownersAfter(state, plan);
  assert.deepEqual([...after.values()].sort(), ["a", "a", "b", "b"]);
  assert.equal(plan.moves, 0, "taking over from a dead executor is not a balancing move");
});

Deno.test("pass planner empties DRAINING executors", () => {
  const owners = { "0": "d", "1": "d", "2": "d", "3": "a" };
  const state = stateOf({ executors: { a: "ACTIVE", b: "ACTIVE", d: "DRAINING" }, owners });
  const plan = planPass(state, { type: "fixed", shardNum: 4 }, NOW, options("greedy"));
  const after = ownersAfter(state, plan);
  assert.equal(after.size, 4);
  assert.ok(![...after.values()].includes("d"), JSON.stringify([...after]));
});

Deno.test("pass planner empties operator-drained executors, by id or by metadata selector", () => {
  const owners = { "0": "d", "1": "d", "2": "b", "3": "a", "4": "a", "5": "b" };
  const state = stateOf({ executors: { a: "ACTIVE", b: "ACTIVE", d: "ACTIVE" }, owners });
  putExecutorDrain(state, { id: "id:d", executorId: "d", reason: "", createdAtMs: 0 });
  let plan = planPass(state, { type: "fixed", shardNum: 6 }, NOW, options("greedy"));
  assert.ok([...ownersAfter(state, plan).values()].every((e) => e !== "d"), "d emptied");
  removeExecutorDrain(state, "id:d");
  applyEvents(state, [{ type: "metadata", executorId: "b", metadata: { host: "w7" } }]);
  putExecutorDrain(state, {
    id: "selector:host=w7",
    selector: { host: "w7" },
    reason: "",
    createdAtMs: 0,
  });
  plan = planPass(state, { type: "fixed", shardNum: 6 }, NOW, options("greedy"));
  const after = ownersAfter(state, plan);
  assert.equal(after.size, 6);
  assert.ok([...after.values()].every((e) => e !== "b"), "b matches the selector: emptied");
});

Deno.test("pass planner unassigns drained shards and never assigns them", () => {
  const state = stateOf({
    executors: { a: "ACTIVE", b: "ACTIVE" },
    owners: { "0": "a", "1": "b", "2": "a" },
    drained: ["2", "3"],
  });
  const plan = planPass(state, { type: "fixed", shardNum: 4 }, NOW, options());
  assert.deepEqual(plan.delta.unassign, ["2"]);
  assert.ok(!Object.values(plan.delta.assign).flat().includes("3"));
  assert.deepEqual([...ownersAfter(state, plan).keys()].sort(), ["0", "1"]);
});

Deno.test("pass planner removes ephemeral shards their owner reports DONE and answers their requests", () => {
  const state = stateOf({
    executors: { a: "ACTIVE", b: "ACTIVE" },
    owners: { x: "a", y: "a", z: "b" },
    requested: { x: 17 },
    reports: {
      a: { x: { status: "DONE", load: 0 }, y: { status: "READY", load: 1 } },
      b: { y: { status: "DONE", load: 0 } }, // not the owner of y: ignored
    },
  });
  const plan = planPass(state, { type: "ephemeral" }, NOW, options());
  assert.deepEqual(plan.delta.remove, ["x"]);
  assert.ok(!Object.values(plan.delta.assign).flat().includes("x"));
  assert.ok(ownersAfter(state, plan).has("y"));
  assert.deepEqual(plan.answered, [{ shardKey: "x", revision: 17 }]);
});

Deno.test("pass planner gives requested ephemeral shards owners and lists them as answered", () => {
  const state = stateOf({
    executors: { a: "ACTIVE", b: "ACTIVE" },
    requested: { n1: 40, n2: 41 },
  });
  const plan = planPass(state, { type: "ephemeral" }, NOW, options());
  const after = ownersAfter(state, plan);
  assert.deepEqual([...after.keys()].sort(), ["n1", "n2"]);
  assert.notEqual(after.get("n1"), after.get("n2"), "spread over both executors");
  const answered = [...plan.answered].sort((p, q) => p.shardKey.localeCompare(q.shardKey));
  assert.deepEqual(answered, [{ shardKey: "n1", revision: 40 }, { shardKey: "n2", revision: 41 }]);
});

Deno.test("pass planner unassigns owned shards when no executor is live", () => {
  const state = stateOf({
    executors: { a: "stale", b: "DRAINING" },
    owners: { "0": "a", "1": "b" },
    requested: {},
  });
  const plan = planPass(state, { type: "fixed", shardNum: 3 }, NOW, options("greedy"));
  assert.deepEqual(plan.delta.unassign.toSorted(), ["0", "1"]);
  assert.deepEqual(Object.values(plan.delta.assign).flat(), []);
});

Deno.test("pass planner forgets executors unseen past the retention that own nothing", () => {
  const state = stateOf({
    executors: { a: "ACTIVE", gone: "stale", holder: "stale", quiet: "ACTIVE" },
    owners: { "0": "holder", "1": "a" },
  });
  // At 5 s "quiet" is stale (TTL 1 s) but still within the 10 s retention.
  // Only "a" heartbeats again, at 5 s.
  state.apply({
    revision: 31,
    events: [{
      type: "heartbeat",
      executorId: "a",
      record: { status: "ACTIVE", timestampMs: WALL },
    }],
  }, 5_000);
  const plan = planPass(state, { type: "fixed", shardNum: 2 }, 5_000, {
    ...options(),
    executorRetentionMs: 10_000,
  });
  assert.deepEqual(plan.forget, [{ executorId: "gone", heartbeatRevision: 24 }]);
  assert.deepEqual(
    plan.delta.assign,
    { a: ["0"] },
    "holder's shard moves first; it is forgotten later",
  );
});

Deno.test("pass planner leaves an unchanged balanced state alone", () => {
  for (const name of ["naive", "greedy"] as const) {
    const state = stateOf({
      executors: { a: "ACTIVE", b: "ACTIVE" },
      owners: { "0": "a", "1": "a", "2": "b", "3": "b" },
      reports: {
        a: { "0": { status: "READY", load: 1 } },
        b: { "2": { status: "READY", load: 1 } },
      },
    });
    const plan = planPass(state, { type: "fixed", shardNum: 4 }, NOW, options(name, 10));
    assert.ok(isEmptyDelta(plan.delta), `${name}: ${JSON.stringify(plan.delta)}`);
    assert.equal(plan.moves, 0);
    assert.deepEqual(plan.forget, []);
    assert.deepEqual(plan.answered, []);
  }
});

Deno.test("pass planner counts balancing moves between live executors within maxMoves", () => {
  const owners = Object.fromEntries(fixedShardKeys(6).map((s) => [s, "a"]));
  const state = stateOf({ executors: { a: "ACTIVE", b: "ACTIVE" }, owners });
  const shape = { type: "fixed", shardNum: 6 } as const;
  assert.equal(planPass(state, shape, NOW, options("naive", 10)).moves, 3);
  const one = planPass(state, shape, NOW, options("naive", 1));
  assert.equal(one.moves, 1);
  assert.equal(one.delta.assign["b"]?.length, 1);
});

Deno.test("fixed shard keys are 0..n-1 and built once per size", () => {
  assert.deepEqual(fixedShardKeys(3), ["0", "1", "2"]);
  assert.equal(fixedShardKeys(3), fixedShardKeys(3));
  assert.deepEqual(fixedShardKeys(0), []);
});
