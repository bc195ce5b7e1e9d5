import assert from "node:assert/strict";
import type { ExecutorDrain } from "../core/executor_drain.ts";
import { NamespaceState } from "../state/namespace_state.ts";
import type { StoredExecutor } from "../store/store.ts";
import { testInput } from "./_testing.ts";
import { planCellsPass } from "./cells_pass.ts";
import { type TestPassOptions as PassOptions, testPlan as planPass } from "./_testing.ts";
import { loadBalancerFor } from "../loadbalancer/mod.ts";

const TTL = 1_000;
const WALL = 1_700_000_000_000;
const NOW = 100;

interface Picture {
  cells: Record<string, "ACTIVE" | "DRAINING" | "stale">;
  owners?: Record<string, string>;
  requested?: Record<string, number>;
  drainedCells?: string[];
  drainedShards?: string[];
  done?: Record<string, string>;
}

function stateOf(picture: Picture): NamespaceState {
  const state = new NamespaceState("ns", { heartbeatTtlMs: TTL });
  const executors = new Map<string, StoredExecutor>();
  for (const [id, how] of Object.entries(picture.cells)) {
    const done = Object.entries(picture.done ?? {}).filter(([, cell]) => cell === id);
    executors.set(id, {
      executorId: id,
      heartbeat: {
        status: how === "DRAINING" ? "DRAINING" : "ACTIVE",
        timestampMs: how === "stale" ? 0 : WALL,
      },
      heartbeatRevision: 20,
      metadata: {},
      reports: new Map(done.map(([t]) => [t, { status: "DONE", load: 0 }])),
    });
  }
  const drains = new Map<string, ExecutorDrain>(
    (picture.drainedCells ?? []).map((
      id,
    ) => [`id:${id}`, { id: `id:${id}`, executorId: id, reason: "", createdAtMs: WALL }]),
  );
  state.load(
    {
      revision: 30,
      executors,
      assignmentSeq: 1,
      owners: new Map(Object.entries(picture.owners ?? {})),
      assignedRevisions: new Map(),
      assignmentTimes: new Map(),
      drained: new Set(picture.drainedShards ?? []),
      executorDrains: drains,
      requested: new Map(Object.entries(picture.requested ?? {})),
    },
    0,
    WALL,
  );
  return state;
}

interface CellsOptions {
  readonly pins: ReadonlyMap<string, string>;
  readonly moves: ReadonlyMap<string, string>;
  readonly executorRetentionMs: number;
}

function options(extra: Partial<CellsOptions> = {}): CellsOptions {
  return { pins: new Map(), moves: new Map(), executorRetentionMs: 60_000, ...extra };
}

/** A cells pass over `state` at `now`, with pending `moves` and `pins`. */
function cellsPass(
  state: NamespaceState,
  now: number,
  { pins, moves, executorRetentionMs }: CellsOptions,
) {
  return planCellsPass(
    testInput(state, now, { cells: { pins, moves } }),
    { kind: "cells", pins, executorRetentionMs },
  );
}

Deno.test("new tenants go to the least-loaded cells in request order, ties to the smallest id", () => {
  const state = stateOf({
    cells: { c1: "ACTIVE", c2: "ACTIVE", c3: "ACTIVE" },
    owners: { a: "c1", b: "c1", c: "c2" },
    requested: { x: 5, y: 6, z: 7 },
  });
  const plan = cellsPass(state, NOW, options());
  assert.deepEqual(plan.delta.assign, { c3: ["x", "z"], c2: ["y"] });
  assert.equal(plan.moves, 0);
  assert.deepEqual(plan.answered.map((a) => a.shardKey).sort(), ["x", "y", "z"]);
});

Deno.test("placed tenants never move when an empty cell joins", () => {
  const state = stateOf({
    cells: { c1: "ACTIVE", c2: "ACTIVE", empty: "ACTIVE" },
    owners: { a: "c1", b: "c1", c: "c1", d: "c2" },
  });
  const plan = cellsPass(state, NOW, options());
  assert.deepEqual(plan.delta, { assign: {}, unassign: [], remove: [] });
});

Deno.test("a drained, draining or stale cell keeps its tenants and takes no new ones", () => {
  const state = stateOf({
    cells: { drained: "ACTIVE", draining: "DRAINING", stale: "stale", ok: "ACTIVE" },
    owners: { a: "drained", b: "draining", c: "stale", d: "ok", e: "ok" },
    drainedCells: ["drained"],
    requested: { new: 1 },
  });
  const plan = cellsPass(state, NOW, options());
  assert.deepEqual(plan.delta, { assign: { ok: ["new"] }, unassign: [], remove: [] });
});

Deno.test("a tenant on a cell gone long ago stays mapped: its cell is not forgotten", () => {
  const state = stateOf({ cells: { gone: "stale", ok: "ACTIVE" }, owners: { a: "gone" } });
  const plan = cellsPass(state, 120_000, options());
  assert.deepEqual(plan.delta.assign, {});
  assert.deepEqual(plan.forget.map((f) => f.executorId), ["ok"]);
});

Deno.test("an operator move goes to a live undrained cell, and only then", () => {
  const state = stateOf({
    cells: { c1: "ACTIVE", c2: "ACTIVE", d: "ACTIVE", s: "stale" },
    owners: { a: "c1", b: "c1", c: "c1" },
    drainedCells: ["d"],
  });
  const moves = new Map([["a", "c2"], ["b", "d"], ["c", "s"]]);
  const plan = cellsPass(state, NOW, options({ moves }));
  assert.deepEqual(plan.delta.assign, { c2: ["a"] });
  assert.equal(plan.moves, 1);
});

Deno.test("a pin places its tenant on a dedicated cell that takes no other new tenant", () => {
  const state = stateOf({
    cells: { c1: "ACTIVE", big: "ACTIVE" },
    owners: { a: "c1", b: "c1" },
    requested: { "big-co": 1, x: 2 },
  });
  const pins = new Map([["big-co", "big"]]);
  const plan = cellsPass(state, NOW, options({ pins }));
  assert.deepEqual(plan.delta.assign, { big: ["big-co"], c1: ["x"] });
});

Deno.test("a pin added for a placed tenant moves it to its cell once the cell is live", () => {
  const pins = new Map([["a", "big"]]);
  const down = stateOf({ cells: { c1: "ACTIVE", big: "stale" }, owners: { a: "c1" } });
  assert.deepEqual(cellsPass(down, NOW, options({ pins })).delta.assign, {});
  const up = stateOf({ cells: { c1: "ACTIVE", big: "ACTIVE" }, owners: { a: "c1" } });
  const plan = cellsPass(up, NOW, options({ pins }));
  assert.deepEqual(plan.delta.assign, { big: ["a"] });
  assert.equal(plan.moves, 1);
});

Deno.test("drained tenants lose their cell and finished ones are removed", () => {
  const state = stateOf({
    cells: { c1: "ACTIVE" },
    owners: { a: "c1", b: "c1", c: "c1" },
    drainedShards: ["a"],
    done: { b: "c1" },
  });
  const plan = cellsPass(state, NOW, options());
  assert.deepEqual(plan.delta, { assign: {}, unassign: ["a"], remove: ["b"] });
});

Deno.test("with no eligible cell a new tenant waits, unanswered", () => {
  const state = stateOf({ cells: { d: "ACTIVE" }, drainedCells: ["d"], requested: { x: 1 } });
  const plan = cellsPass(state, NOW, options());
  assert.deepEqual(plan.delta.assign, {});
  assert.deepEqual(plan.answered, []);
});

Deno.test("planPass takes the cells branch when cells options are given: no balancing", () => {
  const state = stateOf({
    cells: { c1: "ACTIVE", c2: "ACTIVE" },
    owners: { a: "c1", b: "c1", c: "c1", d: "c1" },
  });
  const pass: PassOptions = {
    balancer: loadBalancerFor("greedy"),
    maxMoves: 100,
    executorRetentionMs: 60_000,
    cells: { pins: new Map(), moves: new Map() },
  };
  assert.deepEqual(planPass(state, { type: "ephemeral" }, NOW, pass).delta.assign, {});
  const { cells: _, ...balanced } = pass;
  assert.notDeepEqual(planPass(state, { type: "ephemeral" }, NOW, balanced).delta.assign, {});
});
