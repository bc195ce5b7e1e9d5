/**
 * One rebalance pass of a `mode: cells` namespace, as a pure function. The
 * shard keys are tenants and the executors are cells. Placement is sticky:
 *
 * - a new tenant (asked for, not yet placed) goes to its pin, or else to the
 *   least-loaded eligible cell ({@linkcode placeNewTenants});
 * - a placed tenant never moves by itself: not when cells join, not when its
 *   cell is drained, stale, draining or gone (static stability: routers keep
 *   routing to it, and an operator moves it);
 * - it moves only when an operator asked ({@linkcode CellsPassOptions.moves})
 *   or when a pin names another cell, and then only to a live ACTIVE cell;
 * - drained shards lose their cell and finished (DONE) tenants are removed,
 *   as in every ephemeral namespace.
 *
 * @module
 */
import type { AssignmentDelta } from "../core/types.ts";
import { type CellLoad, placeNewTenants } from "../placement/cells.ts";
import { staleToHide } from "./hide_stale.ts";
import type { NamespaceState } from "../state/namespace_state.ts";
import type { Versioned } from "../store/store.ts";
import type { PassPlan } from "./pass_planner.ts";

/**
 * What a cells pass reads besides the namespace's picture.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import type { CellsPassOptions } from "./cells_pass.ts";
 *
 * const options: CellsPassOptions = {
 *   pins: new Map([["big-co", "cell-9"]]),
 *   moves: new Map(),
 *   executorRetentionMs: 60_000,
 * };
 * assert.equal(options.pins.get("big-co"), "cell-9");
 * ```
 */
export interface CellsPassOptions {
  /** Tenant → cell pins from the namespace config. */
  readonly pins: ReadonlyMap<string, string>;
  /** Operator moves not yet committed, tenant → target cell. */
  readonly moves: ReadonlyMap<string, string>;
  /** Stale executors that hold no tenant are forgotten after this long unseen. */
  readonly executorRetentionMs: number;
}

/**
 * The cells that may take tenants now (ACTIVE and alive), and which of them
 * are drained (no new unpinned tenants).
 *
 * @example
 * ```ts ignore
 * const { live, drained } = liveCells(state, now);
 * ```
 */
export function liveCells(
  state: NamespaceState,
  now: number,
): { live: Set<string>; drained: Set<string> } {
  const live = new Set<string>();
  const drained = new Set<string>();
  for (const e of state.executors.values()) {
    if (e.status !== "ACTIVE" || !state.isAlive(e, now)) continue;
    live.add(e.executorId);
    if (state.isExecutorDrained(e)) drained.add(e.executorId);
  }
  return { live, drained };
}

/**
 * Plans a pass of a cells namespace (see the module doc). Pure: `now` is an
 * argument and nothing is read but `state` and `options`.
 *
 * @example
 * ```ts ignore
 * const plan = planCellsPass(cache.state, clock.monotonic(), {
 *   pins: new Map(),
 *   moves: new Map([["acme", "cell-2"]]),
 *   executorRetentionMs: 60_000,
 * });
 * ```
 */
export function planCellsPass(
  state: NamespaceState,
  now: number,
  options: CellsPassOptions,
): PassPlan {
  const { live, drained } = liveCells(state, now);
  const done = new Set<string>();
  for (const [shard, owner] of state.owners) {
    if (state.executors.get(owner)?.reports[shard]?.status === "DONE") done.add(shard);
  }
  const kept = (shard: string) => !state.drained.has(shard) && !done.has(shard);

  const assign: Record<string, string[]> = {};
  const loads = new Map<string, number>([...live].map((id) => [id, 0]));
  let moves = 0;
  for (const [tenant, owner] of state.owners) {
    if (!kept(tenant)) continue;
    const next = destination(tenant, owner, options, live, drained);
    if (next !== owner) {
      (assign[next] ??= []).push(tenant);
      moves++;
    }
    if (loads.has(next)) loads.set(next, loads.get(next)! + 1);
  }

  const waiting = [...state.requested]
    .filter(([shard]) => !state.owners.has(shard) && kept(shard))
    .sort(([a, ra], [b, rb]) => ra - rb || (a < b ? -1 : a > b ? 1 : 0))
    .map(([shard]) => shard);
  const cells: CellLoad[] = [...loads].map(([id, load]) => ({ id, load }));
  const placed = placeNewTenants(
    { tenants: waiting, placement: state.owners, cells },
    { drained, pins: options.pins },
  );
  for (const [tenant, { cell }] of placed) (assign[cell] ??= []).push(tenant);

  const unassign = [...state.drained].filter((shard) => state.owners.has(shard));
  const remove = [...done];
  const delta: AssignmentDelta = { assign, unassign, remove };
  const forget = forgettable(state, now, options.executorRetentionMs, delta);
  const hide = staleToHide(state, now, delta, new Set(forget.map((f) => f.id)));
  return {
    delta: Object.keys(hide).length > 0 ? { ...delta, hide } : delta,
    moves,
    forget,
    answered: answered(state, new Set(placed.keys()), done),
    unchanged: [],
  };
}

/** An operator move to a live undrained cell first, then a pin to a live cell, else stay. */
function destination(
  tenant: string,
  owner: string,
  options: CellsPassOptions,
  live: ReadonlySet<string>,
  drained: ReadonlySet<string>,
): string {
  const move = options.moves.get(tenant);
  if (move !== undefined && live.has(move) && !drained.has(move)) return move;
  const pin = options.pins.get(tenant);
  if (move === undefined && pin !== undefined && live.has(pin)) return pin;
  return owner;
}

function forgettable(
  state: NamespaceState,
  now: number,
  retentionMs: number,
  delta: AssignmentDelta,
): Versioned[] {
  const gone = new Set([...delta.unassign, ...delta.remove]);
  const movedAway = new Set(Object.values(delta.assign).flat());
  const forget: Versioned[] = [];
  for (const e of state.executors.values()) {
    if (now - e.seenAtMs <= retentionMs || delta.assign[e.executorId]) continue;
    const keeps = [...state.shardsOf(e.executorId)].some((s) => !gone.has(s) && !movedAway.has(s));
    if (!keeps) forget.push({ id: e.executorId, revision: e.heartbeatRevision });
  }
  return forget;
}

function answered(
  state: NamespaceState,
  placed: ReadonlySet<string>,
  done: ReadonlySet<string>,
): Versioned[] {
  const out: Versioned[] = [];
  for (const [shard, revision] of state.requested) {
    if (
      state.owners.has(shard) || placed.has(shard) || state.drained.has(shard) || done.has(shard)
    ) {
      out.push({ id: shard, revision });
    }
  }
  return out;
}
