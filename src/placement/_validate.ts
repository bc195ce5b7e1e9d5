/**
 * Up-front checks of the planners' input and options, so the planners can
 * trust them. Not part of the public API.
 *
 * @module
 */
import type { OwnerSetInput, OwnerSetOptions } from "./types.ts";

/** Options after validation, with defaults filled in. */
export interface ResolvedOptions {
  /** Requested owners per shard. */
  readonly replicas: number;
  /** Metadata key of the zone. */
  readonly zoneKey: string;
  /** Move budget. */
  readonly maxMoves: number;
}

/**
 * Checks the input and the common options and fills in defaults
 * (`zoneKey: "zone"`, `maxMoves: Infinity` unless `defaultMoves` is given).
 *
 * @throws {RangeError} When `owners` is not aligned with `shards`, or an option is out of range.
 * @throws {TypeError} When an owner set is not an array or `zoneKey` is not a string.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { resolveOptions } from "./_validate.ts";
 *
 * const input = { shards: ["a"], owners: [[]], executors: ["x"] };
 * assert.equal(resolveOptions(input, { replicas: 2 }).zoneKey, "zone");
 * assert.throws(() => resolveOptions(input, { replicas: 0 }), RangeError);
 * ```
 */
export function resolveOptions(
  input: OwnerSetInput,
  options: OwnerSetOptions,
  defaultMoves = Infinity,
): ResolvedOptions {
  const { shards, owners, executors } = input;
  if (!Array.isArray(shards) || !Array.isArray(owners) || !Array.isArray(executors)) {
    throw new TypeError("Cannot place: shards, owners and executors must be arrays");
  }
  if (owners.length !== shards.length) {
    throw new RangeError(
      `Cannot place: owners (${owners.length}) must have one entry per shard (${shards.length})`,
    );
  }
  for (const [s, set] of owners.entries()) {
    if (!Array.isArray(set)) {
      throw new TypeError(`Cannot place: owners of shard "${shards[s]}" must be an array`);
    }
  }
  const { replicas, zoneKey = "zone", maxMoves = defaultMoves } = options;
  if (!Number.isInteger(replicas) || replicas < 1) {
    throw new RangeError(`Cannot place: replicas must be an integer ≥ 1, received ${replicas}`);
  }
  if (typeof zoneKey !== "string" || zoneKey === "") {
    throw new TypeError(`Cannot place: zoneKey must be a non-empty string, received ${zoneKey}`);
  }
  if (!(maxMoves === Infinity || (Number.isInteger(maxMoves) && maxMoves >= 0))) {
    throw new RangeError(
      `Cannot place: maxMoves must be a non-negative integer or Infinity, received ${maxMoves}`,
    );
  }
  return { replicas, zoneKey, maxMoves };
}
