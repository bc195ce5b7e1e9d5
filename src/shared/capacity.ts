/**
 * An executor's capacity as it declares it in its heartbeat: two reserved
 * metadata keys, so that the wire needs no new field and Cadence's own
 * clients, which never send them, are unaffected. The server reads them into
 * placement (docs/placement.md, "Capacity"); the executor SDK writes them
 * from its `capacity` option.
 *
 * @module
 */

/** Metadata key of the most shards the executor takes (a positive integer, as text). */
export const CAPACITY_SHARDS_KEY = "sm.capacity.shards";

/** Metadata key of the most load units the executor takes (a positive number, as text). */
export const CAPACITY_LOAD_KEY = "sm.capacity.load";

/** What an executor can take; an absent field is no limit. */
export interface Capacity {
  /** Most shards. */
  readonly shards?: number;
  /** Most load units (the sum of its shards' reported loads). */
  readonly load?: number;
}

/**
 * What is wrong with `capacity`, or undefined when it is valid: `shards` a
 * positive integer, `load` a positive finite number.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { capacityProblem } from "./capacity.ts";
 *
 * assert.equal(capacityProblem({ shards: 100, load: 2.5 }), undefined);
 * assert.equal(capacityProblem({ shards: 0 }), "capacity.shards must be a positive integer, got 0");
 * ```
 */
export function capacityProblem(capacity: Capacity): string | undefined {
  const { shards, load } = capacity;
  if (shards !== undefined && !(Number.isSafeInteger(shards) && shards > 0)) {
    return `capacity.shards must be a positive integer, got ${shards}`;
  }
  if (load !== undefined && !(Number.isFinite(load) && load > 0)) {
    return `capacity.load must be a positive number, got ${load}`;
  }
  return undefined;
}

/**
 * The capacity declared in executor `metadata`; a key whose value is not a
 * valid number is left out (the heartbeat handler refuses it first).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { capacityFromMetadata, capacityMetadata } from "./capacity.ts";
 *
 * const metadata = { zone: "a", ...capacityMetadata({ shards: 50 }) };
 * assert.deepEqual(metadata, { zone: "a", "sm.capacity.shards": "50" });
 * assert.deepEqual(capacityFromMetadata(metadata), { shards: 50 });
 * assert.deepEqual(capacityFromMetadata({ "sm.capacity.load": "x" }), {});
 * ```
 */
export function capacityFromMetadata(metadata: Readonly<Record<string, string>>): Capacity {
  const shards = parse(metadata[CAPACITY_SHARDS_KEY]);
  const load = parse(metadata[CAPACITY_LOAD_KEY]);
  return {
    ...(shards !== undefined && Number.isSafeInteger(shards) ? { shards } : {}),
    ...(load !== undefined ? { load } : {}),
  };
}

/** The metadata entries that declare `capacity` (see {@linkcode capacityFromMetadata}). */
export function capacityMetadata(capacity: Capacity): Record<string, string> {
  return {
    ...(capacity.shards === undefined ? {} : { [CAPACITY_SHARDS_KEY]: String(capacity.shards) }),
    ...(capacity.load === undefined ? {} : { [CAPACITY_LOAD_KEY]: String(capacity.load) }),
  };
}

/**
 * What is wrong with the capacity keys of `metadata`, or undefined.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { metadataCapacityProblem } from "./capacity.ts";
 *
 * assert.equal(metadataCapacityProblem({ "sm.capacity.shards": "12" }), undefined);
 * assert.match(metadataCapacityProblem({ "sm.capacity.shards": "-1" }) ?? "", /positive integer/);
 * ```
 */
export function metadataCapacityProblem(
  metadata: Readonly<Record<string, string>>,
): string | undefined {
  for (const [key, integer] of [[CAPACITY_SHARDS_KEY, true], [CAPACITY_LOAD_KEY, false]] as const) {
    const text = metadata[key];
    if (text === undefined) continue;
    const value = parse(text);
    if (value === undefined || (integer && !Number.isSafeInteger(value))) {
      const kind = integer ? "a positive integer" : "a positive number";
      return `${JSON.stringify(key)} (a declared capacity) must be ${kind}, got ${
        JSON.stringify(text)
      }`;
    }
  }
  return undefined;
}

function parse(text: string | undefined): number | undefined {
  if (text === undefined || !/^\s*\d+(\.\d+)?\s*$/.test(text)) return undefined;
  const value = Number(text);
  return Number.isFinite(value) && value > 0 ? value : undefined;
}
