/**
 * Human output of `shard move` and `namespace blast-radius`.
 *
 * @module
 */
import { palette as makePalette } from "./colour.ts";
import { renderKeyValues, renderTable } from "./table.ts";

const PLAIN = makePalette(false);

/** What `shard move` prints with --json. */
export interface MoveModel {
  /** Namespace of the tenants. */
  readonly namespace: string;
  /** The target cell. */
  readonly toExecutorId: string;
  /** Tenants that moved. */
  readonly movedShardKeys: readonly string[];
  /** Tenants that were there already. */
  readonly unchangedShardKeys: readonly string[];
}

/**
 * `shard move`: one line per tenant.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { moveText } from "./placement_format.ts";
 *
 * const text = moveText({
 *   namespace: "customers",
 *   toExecutorId: "cell-2",
 *   movedShardKeys: ["acme"],
 *   unchangedShardKeys: ["globex"],
 * });
 * assert.ok(text.startsWith("Moved 1 tenant of customers to cell-2"));
 * ```
 */
export function moveText(move: MoveModel, paint = PLAIN): string {
  const n = move.movedShardKeys.length;
  const head = `Moved ${n} tenant${n === 1 ? "" : "s"} of ${move.namespace} to ${
    paint.cyan(move.toExecutorId)
  }`;
  const rows = [
    ...move.movedShardKeys.map((key) => [key, "moved"]),
    ...move.unchangedShardKeys.map((key) => [key, paint.dim("already there")]),
  ];
  return `${head}\n${
    renderTable([{ header: "TENANT" }, { header: "RESULT" }], rows, { palette: paint })
  }`;
}

/** What `namespace blast-radius` prints with --json; shares are fractions 0 to 1. */
export interface BlastRadiusModel {
  /** Namespace measured. */
  readonly namespace: string;
  /** Shards measured. */
  readonly shards: number;
  /** Live executors that may fail. */
  readonly executors: number;
  /** Shards without a live owner now. */
  readonly unownedShards: number;
  /** Fewest live owners of an owned shard. */
  readonly fewestOwners: number;
  /** One executor fails. */
  readonly single: {
    readonly maxLost: number;
    readonly meanLost: number;
    readonly maxDegraded: number;
    readonly meanDegraded: number;
    readonly worstExecutor: string | null;
  };
  /** Two executors fail. */
  readonly pair: {
    readonly maxLost: number;
    readonly meanLost: number;
    readonly worstPair: readonly string[] | null;
  };
  /** The worst share lost by one or two failures. */
  readonly worstLost: number;
}

/**
 * A share as a percentage with one decimal, and the number of shards it is
 * when that is a whole number of them: `33.3% (2)`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { shareText } from "./placement_format.ts";
 *
 * assert.equal(shareText(1 / 3, 6), "33.3% (2)");
 * assert.equal(shareText(0.5, 0), "50%");
 * ```
 */
export function shareText(share: number, shards: number): string {
  const percent = `${Math.round(share * 1000) / 10}%`;
  const count = share * shards;
  return shards > 0 && Math.abs(count - Math.round(count)) < 1e-6
    ? `${percent} (${Math.round(count)})`
    : percent;
}

/**
 * `namespace blast-radius`: the figures, then one row per failure case.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { type BlastRadiusModel, blastRadiusText } from "./placement_format.ts";
 *
 * const model: BlastRadiusModel = {
 *   namespace: "ns", shards: 8, executors: 4, unownedShards: 0, fewestOwners: 1,
 *   single: { maxLost: 0.25, meanLost: 0.25, maxDegraded: 0, meanDegraded: 0, worstExecutor: "a" },
 *   pair: { maxLost: 0.5, meanLost: 0.5, worstPair: ["a", "b"] },
 *   worstLost: 0.5,
 * };
 * const lines = blastRadiusText(model).split("\n");
 * assert.equal(lines[5], "Worst lost (1 or 2 fail)  50% (4)");
 * assert.equal(lines.at(-2), "any 1 executor    25% (2)    25% (2)        0% (0)         0% (0)  a");
 * assert.equal(lines.at(-1), "any 2 executors   50% (4)    50% (4)             -              -  a + b");
 * ```
 */
export function blastRadiusText(model: BlastRadiusModel, paint = PLAIN): string {
  const { shards, single, pair } = model;
  const share = (value: number) => shareText(value, shards);
  const head = renderKeyValues([
    ["Namespace", model.namespace],
    ["Shards", String(shards)],
    ["Without a live owner", share(shards === 0 ? 0 : model.unownedShards / shards)],
    ["Live executors", String(model.executors)],
    ["Fewest owners", String(model.fewestOwners)],
    ["Worst lost (1 or 2 fail)", paint.bold(share(model.worstLost))],
  ], { palette: paint });
  const table = renderTable(
    [
      { header: "FAILING" },
      { header: "LOST MAX", align: "right" },
      { header: "LOST MEAN", align: "right" },
      { header: "DEGRADED MAX", align: "right" },
      { header: "DEGRADED MEAN", align: "right" },
      { header: "WORST" },
    ],
    [
      [
        "any 1 executor",
        share(single.maxLost),
        share(single.meanLost),
        share(single.maxDegraded),
        share(single.meanDegraded),
        single.worstExecutor ?? "-",
      ],
      [
        "any 2 executors",
        share(pair.maxLost),
        share(pair.meanLost),
        "-",
        "-",
        pair.worstPair?.join(" + ") ?? "-",
      ],
    ],
    { palette: paint },
  );
  return `${head}\n\n${table}`;
}
