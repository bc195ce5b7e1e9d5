/**
 * Benchmarks of a cells namespace's pass planning (`planCellsPass`): tenants
 * on cells, no balancing. "steady": every tenant placed, nothing to do;
 * "1,000 new": 1,000 tenants asked for; "1 move": one operator move pending;
 * "initial": every tenant asked for, none placed yet. No I/O; inputs are
 * built before timing.
 *
 * Run: `deno bench -A bench/cells_pass_bench.ts`
 *
 * @module
 */
import { planInput, planPass } from "../src/plan/mod.ts";
import { NamespaceState } from "../src/state/namespace_state.ts";
import type { StoredExecutor } from "../src/store/store.ts";

const TENANTS = 100_000;
const CELLS = [100, 1_000];
const WALL = 1_700_000_000_000;

function stateFor(cells: number, placed: number, requested: number): NamespaceState {
  const owners = new Map<string, string>();
  for (let t = 0; t < placed; t++) owners.set(`tenant-${t}`, `cell-${t % cells}`);
  const asked = new Map<string, number>();
  for (let t = placed; t < placed + requested; t++) asked.set(`tenant-${t}`, t);
  const executors = new Map<string, StoredExecutor>();
  for (let c = 0; c < cells; c++) {
    executors.set(`cell-${c}`, {
      executorId: `cell-${c}`,
      heartbeat: { status: "ACTIVE", timestampMs: WALL },
      heartbeatRevision: 10 + c,
      metadata: {},
      reports: new Map(),
    });
  }
  const state = new NamespaceState("bench", { heartbeatTtlMs: 10_000 });
  state.load(
    {
      revision: 200_000,
      executors,
      assignmentSeq: 1,
      owners,
      assignedRevisions: new Map(),
      assignmentTimes: new Map(),
      drained: new Set(),
      executorDrains: new Map(),
      requested: asked,
    },
    0,
    WALL,
  );
  return state;
}

const POLICY = { kind: "cells", pins: new Map(), executorRetentionMs: 60_000 } as const;

/** A cells pass over `state` with pending `moves`: the input built, then planned. */
const cellsPass = (state: NamespaceState, moves = new Map<string, string>()) =>
  planPass(planInput(state, 1, { cellMoves: moves }), POLICY);

for (const cells of CELLS) {
  const group = `cells pass, 100k tenants × ${cells} cells`;
  const steady = stateFor(cells, TENANTS, 0);
  const fresh = stateFor(cells, TENANTS - 1_000, 1_000);
  const initial = stateFor(cells, 0, TENANTS);
  const move = new Map([["tenant-0", "cell-1"]]);
  Deno.bench(`steady (${cells} cells)`, { group, baseline: true }, () => {
    cellsPass(steady);
  });
  Deno.bench(`1,000 new (${cells} cells)`, { group }, () => {
    cellsPass(fresh);
  });
  Deno.bench(`1 move (${cells} cells)`, { group }, () => {
    cellsPass(steady, move);
  });
  Deno.bench(`initial (${cells} cells)`, { group }, () => {
    cellsPass(initial);
  });
}
