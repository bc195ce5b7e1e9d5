/**
 * Which namespace settings a store's format allows in a stored definition.
 * Release 0.1.0 (store format 1) reads definitions with a strict schema and
 * skips one with a setting it does not know, so its instances would stop
 * serving that namespace: while a store is at format 1, a definition may use
 * only 0.1.0's settings (docs/operations.md, "Upgrades and rollbacks").
 *
 * @module
 */

/** The top-level namespace settings release 0.1.0 knows (store format 1). */
export const FORMAT_1_SETTINGS: ReadonlySet<string> = new Set([
  "name",
  "type",
  "shardNum",
  "loadBalancer",
  "maxMovesPerPass",
  "maxShards",
  "ownership",
  "ownershipLease",
  "mode",
  "pins",
  "replicas",
  "placement",
  "maxOverlap",
  "zoneKey",
  "maxDrainedShare",
]);

/**
 * The settings of `spec` (a definition as written) that a store at
 * `storeFormat` cannot hold, sorted; empty when it can hold them all.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { settingsBeyondFormat } from "./format_settings.ts";
 *
 * const spec = { name: "a", type: "fixed", shardNum: 4, settleWindow: "5s" };
 * assert.deepEqual(settingsBeyondFormat(spec, 1), ["settleWindow"]);
 * assert.deepEqual(settingsBeyondFormat(spec, 2), []);
 * ```
 */
export function settingsBeyondFormat(
  spec: Readonly<Record<string, unknown>>,
  storeFormat: number,
): string[] {
  if (storeFormat >= 2) return [];
  return Object.keys(spec).filter((key) => !FORMAT_1_SETTINGS.has(key)).sort();
}

/**
 * Why a definition with `spec` cannot be stored at `storeFormat`, or
 * undefined when it can.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { formatRefusal } from "./format_settings.ts";
 *
 * assert.match(formatRefusal({ name: "a", type: "fixed", shardNum: 4, massLoss: {} }, 1)!, /massLoss/);
 * assert.equal(formatRefusal({ name: "a", type: "fixed", shardNum: 4 }, 1), undefined);
 * ```
 */
export function formatRefusal(
  spec: Readonly<Record<string, unknown>>,
  storeFormat: number,
): string | undefined {
  const beyond = settingsBeyondFormat(spec, storeFormat);
  if (beyond.length === 0) return undefined;
  return `Refused: ${beyond.join(", ")} ${beyond.length === 1 ? "is a setting" : "are settings"} ` +
    `release 0.1.0 does not know, and the store is at its format (1), so instances of 0.1.0 may ` +
    `still run on it and would stop serving the namespace; raise the store's format ` +
    `(shard-manager --raise-store-format 2) once none will, then retry; nothing was changed`;
}
