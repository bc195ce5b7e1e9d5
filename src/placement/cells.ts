/**
 * Sticky placement of tenants on cells (`mode: cells`): the shard key is a
 * partition key such as a customer id, the executors are cells.
 *
 * @module
 */
import { CellHeap } from "./_cell_heap.ts";
import type { CellLoad } from "./cell_load.ts";

export type { CellLoad } from "./cell_load.ts";

/**
 * Options of {@linkcode placeTenant} and {@linkcode placeNewTenants}.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import type { CellOptions } from "./cells.ts";
 *
 * const options: CellOptions = { drained: ["cell-2"], pins: new Map([["big-co", "cell-9"]]) };
 * assert.equal(options.pins?.get("big-co"), "cell-9");
 * ```
 */
export interface CellOptions {
  /**
   * Cells that take no new tenants (existing tenants stay).
   * @default {[]}
   */
  readonly drained?: Iterable<string>;
  /**
   * Tenant → cell pins set by an operator. A pinned tenant goes to its cell
   * (even a drained one: the pin is explicit); a cell that is the target of
   * any pin is dedicated and takes no unpinned tenant.
   * @default {new Map()}
   */
  readonly pins?: ReadonlyMap<string, string>;
}

/**
 * Where a tenant goes and why.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import type { TenantPlacement } from "./cells.ts";
 *
 * const placement: TenantPlacement = { cell: "cell-1", reason: "least-loaded" };
 * assert.equal(placement.reason, "least-loaded");
 * ```
 */
export interface TenantPlacement {
  /** The chosen cell. */
  readonly cell: string;
  /** "pinned" when an operator pin decided, "least-loaded" otherwise. */
  readonly reason: "pinned" | "least-loaded";
}

/**
 * Chooses the cell for a new tenant: its pin if it has one and the pinned
 * cell is listed; otherwise the least-loaded cell that is neither drained
 * nor dedicated to pinned tenants, ties broken by the smallest id (UTF-16
 * code unit order). Returns undefined when no cell may take it (a pin to a
 * cell not listed, or every cell drained or dedicated): the caller retries
 * later. Pure: it never moves an existing tenant; see
 * {@linkcode placeNewTenants}.
 *
 * @throws {RangeError} When a load is negative or not finite, or a cell id repeats.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { placeTenant } from "./cells.ts";
 *
 * const cells = [{ id: "c1", load: 5 }, { id: "c2", load: 3 }, { id: "c3", load: 1 }];
 * assert.deepEqual(placeTenant("acme", cells, { drained: ["c3"] }), {
 *   cell: "c2",
 *   reason: "least-loaded",
 * });
 * const pins = new Map([["big-co", "c1"]]);
 * assert.deepEqual(placeTenant("big-co", cells, { pins }), { cell: "c1", reason: "pinned" });
 * ```
 */
export function placeTenant(
  tenant: string,
  cells: readonly CellLoad[],
  options: CellOptions = {},
): TenantPlacement | undefined {
  return choose(tenant, cells, validateCells(cells), resolveRules(options));
}

/**
 * Input of {@linkcode placeNewTenants}.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import type { NewTenantsInput } from "./cells.ts";
 *
 * const input: NewTenantsInput = {
 *   tenants: ["acme"],
 *   placement: new Map(),
 *   cells: [{ id: "c1", load: 0 }],
 * };
 * assert.equal(input.tenants.length, 1);
 * ```
 */
export interface NewTenantsInput {
  /** Every tenant that should have a cell, in the order new ones are placed. */
  readonly tenants: readonly string[];
  /** Current placement, tenant → cell; these tenants stay where they are. */
  readonly placement: ReadonlyMap<string, string>;
  /** Cells with their loads. */
  readonly cells: readonly CellLoad[];
}

/**
 * Options of {@linkcode placeNewTenants}.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import type { NewTenantsOptions } from "./cells.ts";
 *
 * const options: NewTenantsOptions = { tenantLoad: 2, drained: ["c3"] };
 * assert.equal(options.tenantLoad, 2);
 * ```
 */
export interface NewTenantsOptions extends CellOptions {
  /**
   * Load a newly placed tenant adds to its cell, for the next placement.
   * @default {1}
   */
  readonly tenantLoad?: number;
}

/**
 * Places the tenants that the current placement does not hold yet, one at a
 * time in the given order (as {@linkcode placeTenant} would, each adding
 * `tenantLoad` to its cell). Returns only the new placements: existing
 * tenants never move, even when their cell is drained, dedicated or gone —
 * moving one is an explicit operator action. Tenants that cannot be placed
 * now are left out.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { placeNewTenants } from "./cells.ts";
 *
 * const placed = placeNewTenants({
 *   tenants: ["old", "new-1", "new-2"],
 *   placement: new Map([["old", "c1"]]),
 *   cells: [{ id: "c1", load: 1 }, { id: "c2", load: 0 }],
 * });
 * assert.deepEqual([...placed.keys()], ["new-1", "new-2"]);
 * assert.equal(placed.get("new-1")?.cell, "c2");
 * assert.equal(placed.get("new-2")?.cell, "c1");
 * ```
 */
export function placeNewTenants(
  input: NewTenantsInput,
  options: NewTenantsOptions = {},
): Map<string, TenantPlacement> {
  const { tenantLoad = 1 } = options;
  if (!Number.isFinite(tenantLoad) || tenantLoad < 0) {
    throw new RangeError(
      `Cannot place tenants: tenantLoad must be finite and ≥ 0, received ${tenantLoad}`,
    );
  }
  const ids = validateCells(input.cells);
  const rules = resolveRules(options);
  // Pinned tenants go to their (dedicated) cells, which are not in the heap;
  // everyone else takes the least-loaded open cell, as `choose` would.
  const open = new CellHeap(
    input.cells.filter(({ id }) => !rules.drained.has(id) && !rules.dedicated.has(id)),
  );
  const placed = new Map<string, TenantPlacement>();
  for (const tenant of input.tenants) {
    if (input.placement.has(tenant) || placed.has(tenant)) continue;
    const pin = rules.pins.get(tenant);
    if (pin !== undefined) {
      if (ids.has(pin)) placed.set(tenant, { cell: pin, reason: "pinned" });
      continue;
    }
    const cell = open.addToLeast(tenantLoad);
    if (cell !== undefined) placed.set(tenant, { cell, reason: "least-loaded" });
  }
  return placed;
}

interface Rules {
  readonly drained: ReadonlySet<string>;
  readonly pins: ReadonlyMap<string, string>;
  readonly dedicated: ReadonlySet<string>;
}

function resolveRules(options: CellOptions): Rules {
  const pins = options.pins ?? new Map<string, string>();
  return { drained: new Set(options.drained ?? []), pins, dedicated: new Set(pins.values()) };
}

function validateCells(cells: readonly CellLoad[]): Map<string, number> {
  const ids = new Map<string, number>();
  for (const [i, cell] of cells.entries()) {
    if (ids.has(cell.id)) {
      throw new RangeError(`Cannot place tenants: cell "${cell.id}" is listed twice`);
    }
    if (!Number.isFinite(cell.load) || cell.load < 0) {
      throw new RangeError(
        `Cannot place tenants: load of cell "${cell.id}" must be finite and ≥ 0, received ${cell.load}`,
      );
    }
    ids.set(cell.id, i);
  }
  return ids;
}

function choose(
  tenant: string,
  cells: readonly CellLoad[],
  ids: ReadonlyMap<string, number>,
  { drained, pins, dedicated }: Rules,
): TenantPlacement | undefined {
  const pin = pins.get(tenant);
  if (pin !== undefined) return ids.has(pin) ? { cell: pin, reason: "pinned" } : undefined;
  let best: CellLoad | undefined;
  for (const cell of cells) {
    if (drained.has(cell.id) || dedicated.has(cell.id)) continue;
    if (
      best === undefined || cell.load < best.load || (cell.load === best.load && cell.id < best.id)
    ) best = cell;
  }
  return best && { cell: best.id, reason: "least-loaded" };
}
