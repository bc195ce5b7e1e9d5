/**
 * One rebalance pass of a `mode: cells` namespace, as a pure function. The
 * shard keys are tenants and the executors are cells. Placement is sticky:
 *
 * - a new tenant (asked for, not yet placed) goes to its pin, or else to the
 *   least-loaded eligible cell ({@linkcode placeNewTenants});
 * - a placed tenant never moves by itself: not when cells join, not when its
 *   cell is drained, stale, draining or gone (static stability: routers keep
 *   routing to it, and an operator moves it);
 * - it moves only when an operator asked (`PlanInput.cellMoves`)
 *   or when a pin names another cell, and then only to a live ACTIVE cell;
 * - drained shards lose their cell and finished (DONE) tenants are removed,
 *   as in every ephemeral namespace.
 *
 * @module
 */
import type { AssignmentDelta } from "../core/types.ts";
import { type CellLoad, placeNewTenants } from "../placement/cells.ts";
import { withHidden } from "./hide_stale.ts";
import { answeredRequests, forgettable } from "./pass_cleanup.ts";
import type { Plan } from "./plan.ts";
import type { PlanInput } from "./plan_input.ts";
import type { CellsPolicy } from "./plan_policy.ts";
import { finishedShards } from "./shard_universe.ts";

/**
 * The cells that may take tenants now (ACTIVE and alive), and which of them
 * are drained (no new unpinned tenants).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { NamespaceState } from "../state/namespace_state.ts";
 * import { planInput } from "./plan_input.ts";
 * import { liveCells } from "./cells_pass.ts";
 *
 * const state = new NamespaceState("cells", { heartbeatTtlMs: 2_000 });
 * state.apply({
 *   revision: 2,
 *   events: [{ type: "heartbeat", executorId: "c1", record: { status: "ACTIVE", timestampMs: 1 } }],
 * }, 0);
 * assert.deepEqual([...liveCells(planInput(state, 10)).live], ["c1"]);
 * ```
 */
export function liveCells(input: PlanInput): { live: Set<string>; drained: Set<string> } {
  const live = new Set<string>();
  const drained = new Set<string>();
  for (const e of input.executors.values()) {
    if (e.status !== "ACTIVE" || !e.alive) continue;
    live.add(e.executorId);
    if (e.operatorDrained) drained.add(e.executorId);
  }
  return { live, drained };
}

/**
 * Plans a pass of a cells namespace (see the module doc). Pure: nothing is
 * read but `input` (operator moves included) and `policy`.
 */
export function planCellsPass(input: PlanInput, policy: CellsPolicy): Plan {
  const { live, drained } = liveCells(input);
  const done = finishedShards(input);
  const kept = (shard: string) => !input.drained.has(shard) && !done.has(shard);

  const assign: Record<string, string[]> = {};
  const loads = new Map<string, number>([...live].map((id) => [id, 0]));
  let moves = 0;
  for (const [tenant, owner] of input.owners) {
    if (!kept(tenant)) continue;
    const next = destination(tenant, owner, input.cellMoves, policy.pins, live, drained);
    if (next !== owner) {
      (assign[next] ??= []).push(tenant);
      moves++;
    }
    if (loads.has(next)) loads.set(next, loads.get(next)! + 1);
  }

  const waiting = [...input.requested]
    .filter(([shard]) => !input.owners.has(shard) && kept(shard))
    .sort(([a, ra], [b, rb]) => ra - rb || (a < b ? -1 : a > b ? 1 : 0))
    .map(([shard]) => shard);
  const cells: CellLoad[] = [...loads].map(([id, load]) => ({ id, load }));
  const placed = placeNewTenants(
    { tenants: waiting, placement: input.owners, cells },
    { drained, pins: policy.pins },
  );
  for (const [tenant, { cell }] of placed) (assign[cell] ??= []).push(tenant);

  const unassign = [...input.drained].filter((shard) => input.owners.has(shard));
  const remove = [...done];
  const delta: AssignmentDelta = {
    assign,
    unassign,
    remove,
    // No warm handover in cells: prepares left from another definition are called off.
    ...(input.preparing.size > 0 ? { unprepare: [...input.preparing.keys()] } : {}),
  };
  const forget = forgettable(input, policy.executorRetentionMs, delta, { movedAway: true });
  return {
    delta: withHidden(input, delta, forget),
    moves,
    forget,
    answered: answeredRequests(input, delta, done),
    reliedOn: [],
  };
}

/** An operator move to a live undrained cell first, then a pin to a live cell, else stay. */
function destination(
  tenant: string,
  owner: string,
  moves: ReadonlyMap<string, string>,
  pins: ReadonlyMap<string, string>,
  live: ReadonlySet<string>,
  drained: ReadonlySet<string>,
): string {
  const move = moves.get(tenant);
  if (move !== undefined && live.has(move) && !drained.has(move)) return move;
  const pin = pins.get(tenant);
  if (move === undefined && pin !== undefined && live.has(pin)) return pin;
  return owner;
}
