/**
 * Zone spreading: how many replicas of one shard each zone should hold, and a
 * tally that says whether a set being built may take one more executor from a
 * zone. Not part of the public API.
 *
 * @module
 */

/**
 * The zone quota for sets of `k` owners: water-filling over zone sizes. With
 * level L the largest such that Σ min(size, L) ≤ k, every zone holds
 * `base = min(size, L)` replicas and `extras = k − Σ base` zones among those
 * larger than L (`extra[z] = 1`) hold one more. So no zone holds two more
 * replicas than another unless the other has no executor left, which is the
 * "spread across zones before anything else" rule.
 */
export interface ZoneQuota {
  /** Replicas every set holds in each zone. */
  readonly base: Int32Array;
  /** 1 when the zone may hold one replica over its base. */
  readonly extra: Uint8Array;
  /** How many zones of a set hold one replica over their base. */
  readonly extras: number;
  /** Executors in each zone. */
  readonly sizes: Int32Array;
}

/**
 * Computes the quota for sets of `k` owners over zones of the given sizes
 * (`k` ≤ Σ sizes).
 *
 * @example Three zones of 1, 2 and 5 executors, sets of 4
 * ```ts
 * import assert from "node:assert/strict";
 * import { zoneQuota } from "./_zones.ts";
 *
 * const quota = zoneQuota(Int32Array.of(1, 2, 5), 4);
 * assert.deepEqual([...quota.base], [1, 1, 1]);
 * assert.deepEqual([...quota.extra], [0, 1, 1]);
 * assert.equal(quota.extras, 1);
 * ```
 */
export function zoneQuota(sizes: Int32Array, k: number): ZoneQuota {
  const fill = (level: number): number => sizes.reduce((sum, s) => sum + Math.min(s, level), 0);
  let level = 0;
  while (fill(level + 1) <= k && fill(level + 1) > fill(level)) level++;
  const base = sizes.map((s) => Math.min(s, level));
  const extra = Uint8Array.from(sizes, (s) => s > level ? 1 : 0);
  return { base, extra, extras: k - fill(level), sizes };
}

/**
 * Zone counts of one owner set while it is built or checked.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { ZoneTally, zoneQuota } from "./_zones.ts";
 *
 * const tally = new ZoneTally(zoneQuota(Int32Array.of(2, 2), 2));
 * tally.add(0);
 * assert.equal(tally.canAdd(0), false);
 * assert.equal(tally.canAdd(1), true);
 * ```
 */
export class ZoneTally {
  readonly #quota: ZoneQuota;
  readonly #counts: Int32Array;
  #over = 0;

  /** An empty tally. */
  constructor(quota: ZoneQuota) {
    this.#quota = quota;
    this.#counts = new Int32Array(quota.base.length);
  }

  /** Resets the tally to the first `size` executors of `set`. */
  load(set: ArrayLike<number>, size: number, zoneOf: Int32Array): void {
    this.#counts.fill(0);
    this.#over = 0;
    for (let i = 0; i < size; i++) this.add(zoneOf[set[i]!]!);
  }

  /** Replicas of the set in zone `z`. */
  count(z: number): number {
    return this.#counts[z]!;
  }

  /** Whether one more replica in zone `z` keeps the set within the quota. */
  canAdd(z: number): boolean {
    const c = this.#counts[z]!;
    const base = this.#quota.base[z]!;
    return c < base ||
      (c === base && this.#quota.extra[z] === 1 && this.#over < this.#quota.extras);
  }

  /** Whether zone `z` holds fewer replicas than its base quota. */
  belowBase(z: number): boolean {
    return this.#counts[z]! < this.#quota.base[z]!;
  }

  /** Whether zone `z` still has an executor outside the set. */
  hasRoom(z: number): boolean {
    return this.#counts[z]! < this.#quota.sizes[z]!;
  }

  /** Records one more replica in zone `z`. */
  add(z: number): void {
    if (this.#counts[z]!++ >= this.#quota.base[z]!) this.#over++;
  }

  /** Records one replica fewer in zone `z`. */
  remove(z: number): void {
    if (--this.#counts[z]! >= this.#quota.base[z]!) this.#over--;
  }

  /** Whether the set is within the quota (a complete set within it is spread). */
  get valid(): boolean {
    if (this.#over > this.#quota.extras) return false;
    const { base, extra } = this.#quota;
    for (let z = 0; z < base.length; z++) {
      if (this.#counts[z]! > base[z]! + extra[z]!) return false;
    }
    return true;
  }

  /** Whether zone `z` holds more than it may (so one of its replicas should go). */
  isOver(z: number): boolean {
    const c = this.#counts[z]!;
    const base = this.#quota.base[z]!;
    return c > base + this.#quota.extra[z]! || (c > base && this.#over > this.#quota.extras);
  }
}
