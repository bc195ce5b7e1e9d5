/**
 * Routing a key in a key-range namespace, from memory: hash the key (XXH64 of
 * its UTF-8 bytes, as the server does), then find the slice whose range holds
 * the point by a search over the slices' starts. The slice's key is then
 * looked up like any shard's. The slices come from the watch stream's slice
 * map ({@linkcode KeyRoutes.fromBytes}) or from the namespace state
 * (`AssignedShardState.key_range`).
 *
 * @module
 */
import { RangeIndex } from "../../shared/point_index.ts";
import { readSliceMapBytes } from "../../shared/slice_map_bytes.ts";
import type { KeyRange__Output } from "../../wire/proto.ts";

/** One slice as a spectator routes to it. */
export interface SliceRoute {
  /** The slice's shard key (its id in decimal). */
  readonly sliceKey: string;
  /** First point of the slice. */
  readonly firstPoint: bigint;
  /** Last point of the slice (included). */
  readonly lastPoint: bigint;
  /** The slice's generation. */
  readonly generation: number;
}

const LAST_POINT = (1n << 64n) - 1n;

/**
 * The route of slice `sliceKey` from its wire range (`fixed64` fields arrive
 * as decimal strings); throws a `RangeError` for a range that is not one.
 */
export function sliceRoute(sliceKey: string, range: KeyRange__Output): SliceRoute {
  const firstPoint = BigInt(range.firstPoint);
  const lastPoint = BigInt(range.lastPoint);
  if (!(firstPoint >= 0n && firstPoint <= lastPoint && lastPoint <= LAST_POINT)) {
    throw new RangeError(`Slice ${sliceKey} has no valid range [${firstPoint}, ${lastPoint}]`);
  }
  return { sliceKey, firstPoint, lastPoint, generation: range.generation };
}

/**
 * The slices of a key-range namespace, looked up by key without allocating.
 * Slices may leave gaps (a slice nobody owns is not listed): a key in a gap
 * has no route.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { KeyRoutes } from "./key_routes.ts";
 *
 * const half = 1n << 63n;
 * const routes = KeyRoutes.of([
 *   { sliceKey: "0", firstPoint: 0n, lastPoint: half - 1n, generation: 0 },
 *   { sliceKey: "1", firstPoint: half, lastPoint: (1n << 64n) - 1n, generation: 0 },
 * ]);
 * assert.ok(["0", "1"].includes(routes.sliceKeyOf("user:42")!));
 * ```
 */
export class KeyRoutes {
  readonly #routes: readonly SliceRoute[];
  readonly #index: RangeIndex;
  /** The owners map `#ownerTable` was read from. */
  #ownersFor: ReadonlyMap<string, unknown> | undefined;
  /** Each slice's owner in `#ownersFor`, in line order. */
  #ownerTable: readonly unknown[] = [];

  private constructor(routes: readonly SliceRoute[]) {
    this.#routes = routes;
    this.#index = new RangeIndex(routes);
  }

  /** Routes over `slices` in any order; throws a `RangeError` when two overlap. */
  static of(slices: readonly SliceRoute[]): KeyRoutes {
    const sorted = [...slices].sort((a, b) =>
      a.firstPoint < b.firstPoint ? -1 : a.firstPoint > b.firstPoint ? 1 : 0
    );
    for (let i = 1; i < sorted.length; i++) {
      if (sorted[i]!.firstPoint <= sorted[i - 1]!.lastPoint) {
        throw new RangeError(
          `Slices ${sorted[i - 1]!.sliceKey} and ${sorted[i]!.sliceKey} overlap`,
        );
      }
    }
    return new KeyRoutes(sorted);
  }

  /**
   * Routes over a whole slice map in its binary form (the watch stream's
   * `slice_map`); throws a `RangeError` for bytes that are not one.
   *
   * @example
   * ```ts
   * import assert from "node:assert/strict";
   * import { KeyRoutes } from "./key_routes.ts";
   *
   * // Version 1, one slice (id 0 from point 0), next id 1: every key routes to "0".
   * const routes = KeyRoutes.fromBytes(new Uint8Array([1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]));
   * assert.equal(routes.sliceKeyOf("anything"), "0");
   * ```
   */
  static fromBytes(bytes: Uint8Array): KeyRoutes {
    const { slices } = readSliceMapBytes(bytes);
    return KeyRoutes.of(slices.map((s, i) => ({
      sliceKey: String(s.id),
      firstPoint: s.start,
      lastPoint: (slices[i + 1]?.start ?? LAST_POINT + 1n) - 1n,
      generation: s.generation,
    })));
  }

  /** Number of slices. */
  get size(): number {
    return this.#routes.length;
  }

  /** The slices, in line order. */
  get slices(): readonly SliceRoute[] {
    return this.#routes;
  }

  /** The slice holding `key`'s point, or `undefined` when no listed slice does. */
  routeOf(key: string): SliceRoute | undefined {
    return this.#routes[this.#index.indexOfKey(key)];
  }

  /**
   * The index in {@linkcode KeyRoutes.slices} of the slice holding `key`'s
   * point, or -1 when no listed slice does (for tables kept in line order).
   */
  indexOf(key: string): number {
    return this.#index.indexOfKey(key);
  }

  /**
   * What `owners` (shard key → owner) holds for the slice at `index` of
   * {@linkcode KeyRoutes.slices}. The first call with a map reads every
   * slice's owner from it into a table in line order, kept while the same
   * map is passed (a spectator replaces its map of owners on each change,
   * never edits it), so later lookups read an array.
   */
  ownerAt<T>(index: number, owners: ReadonlyMap<string, T>): T | undefined {
    if (this.#ownersFor !== owners) {
      this.#ownerTable = this.#routes.map((r) => owners.get(r.sliceKey));
      this.#ownersFor = owners;
    }
    return this.#ownerTable[index] as T | undefined;
  }

  /** The shard key of the slice holding `key`, or `undefined` (see {@linkcode KeyRoutes.routeOf}). */
  sliceKeyOf(key: string): string | undefined {
    return this.routeOf(key)?.sliceKey;
  }
}

/**
 * The routes of a new slice map (the watch stream's `slice_map` bytes):
 * undefined when there is none, and `previous` when the bytes are not a map,
 * so that bad bytes keep the routes a spectator has rather than lose them.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { routesOf } from "./key_routes.ts";
 *
 * const routes = routesOf(new Uint8Array([1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]), undefined);
 * assert.equal(routes?.sliceKeyOf("anything"), "0");
 * assert.equal(routesOf(new Uint8Array([255]), routes), routes);
 * assert.equal(routesOf(undefined, routes), undefined);
 * ```
 */
export function routesOf(
  bytes: Uint8Array | undefined,
  previous: KeyRoutes | undefined,
): KeyRoutes | undefined {
  if (bytes === undefined) return undefined;
  try {
    return KeyRoutes.fromBytes(bytes);
  } catch {
    return previous;
  }
}
