/**
 * Operator moves of tenants in a cells namespace that the leader has not
 * committed yet. The instance that leads the namespace keeps them in memory;
 * its cells pass reads them (`PlanInput.cellMoves`) and the
 * caller that asked waits until the cache shows the move, then settles it.
 * A move asked of a leader that then loses its term is not carried over: the
 * caller's wait times out and the operator asks the new leader.
 *
 * @module
 */

/**
 * Pending moves, tenant → target cell; the latest ask for a tenant wins.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { PendingCellMoves } from "./pending_cell_moves.ts";
 *
 * const moves = new PendingCellMoves();
 * moves.add(["acme", "globex"], "cell-2");
 * assert.equal(moves.pending.get("acme"), "cell-2");
 * moves.settle(["acme"], "cell-2");
 * assert.deepEqual([...moves.pending.keys()], ["globex"]);
 * ```
 */
export class PendingCellMoves {
  #moves = new Map<string, string>();
  #version = 0;

  /** Grows with every change of the pending moves: a pass input like the state's. */
  get version(): number {
    return this.#version;
  }

  /** The pending moves (a live view: the leader's pass reads it as it is then). */
  get pending(): ReadonlyMap<string, string> {
    return this.#moves;
  }

  /** Asks to move `tenants` to `cell`, replacing any earlier ask for them. */
  add(tenants: Iterable<string>, cell: string): void {
    for (const tenant of tenants) this.#moves.set(tenant, cell);
    this.#version++;
  }

  /** Forgets the asks to move `tenants` to `cell` (a later ask elsewhere stays). */
  settle(tenants: Iterable<string>, cell: string): void {
    for (const tenant of tenants) {
      if (this.#moves.get(tenant) === cell) this.#moves.delete(tenant);
    }
    this.#version++;
  }
}
