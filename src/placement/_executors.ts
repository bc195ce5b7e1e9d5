/**
 * Turns the planners' executor list into dense indices and zones. Not part of
 * the public API.
 *
 * @module
 */
import type { ExecutorLike } from "./types.ts";

/** Executors sorted by id, with their zones as dense indices. */
export interface ExecutorIndex {
  /** Executor ids, sorted (UTF-16 code unit order); index = position. */
  readonly ids: readonly string[];
  /** Executor id → index. */
  readonly indexOf: ReadonlyMap<string, number>;
  /** Zone index of each executor. */
  readonly zoneOf: Int32Array;
  /** Zone names, sorted; "" is the zone of executors without one. */
  readonly zones: readonly string[];
  /** Executor indices of each zone, ascending. */
  readonly members: readonly Int32Array[];
}

/**
 * Sorts executors by id and numbers their zones, read from
 * `metadata[zoneKey]`.
 *
 * @throws {TypeError} When an id is not a non-empty string.
 * @throws {RangeError} When an id appears twice.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { indexExecutors } from "./_executors.ts";
 *
 * const index = indexExecutors(["b", { id: "a", metadata: { zone: "z" } }], "zone");
 * assert.deepEqual(index.ids, ["a", "b"]);
 * assert.deepEqual(index.zones, ["", "z"]);
 * assert.deepEqual([...index.zoneOf], [1, 0]);
 * ```
 */
export function indexExecutors(executors: readonly ExecutorLike[], zoneKey: string): ExecutorIndex {
  const entries = executors.map((executor) => {
    const id = typeof executor === "string" ? executor : executor?.id;
    if (typeof id !== "string" || id === "") {
      throw new TypeError(`Cannot place: executor ids must be non-empty strings, received ${id}`);
    }
    const zone = typeof executor === "string" ? undefined : executor.metadata?.[zoneKey];
    return { id, zone: zone ?? "" };
  });
  entries.sort((a, b) => a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
  const ids = entries.map((entry) => entry.id);
  const indexOf = new Map<string, number>();
  for (const [i, id] of ids.entries()) {
    if (indexOf.has(id)) throw new RangeError(`Cannot place: executor "${id}" is listed twice`);
    indexOf.set(id, i);
  }
  const zones = [...new Set(entries.map((entry) => entry.zone))].sort();
  const zoneIndex = new Map(zones.map((zone, i) => [zone, i]));
  const zoneOf = Int32Array.from(entries, (entry) => zoneIndex.get(entry.zone)!);
  const sizes = new Int32Array(zones.length);
  for (const z of zoneOf) sizes[z]!++;
  const members = Array.from(sizes, (size) => new Int32Array(size));
  const filled = new Int32Array(zones.length);
  zoneOf.forEach((z, e) => members[z]![filled[z]!++] = e);
  return { ids, indexOf, zoneOf, zones, members };
}
