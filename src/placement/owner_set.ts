/**
 * Stateless owner sets: rendezvous (highest-random-weight) hashing with zone
 * spreading, computed by anyone from the same inputs without asking anyone.
 *
 * @module
 */
import { indexExecutors } from "./_executors.ts";
import { type ZoneQuota, zoneQuota, ZoneTally } from "./_zones.ts";
import { mix32, stableHash } from "./hash.ts";
import type { ExecutorLike } from "./types.ts";

/**
 * Options of {@linkcode ownerSet}.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import type { OwnerSetFunctionOptions } from "./owner_set.ts";
 *
 * const options: OwnerSetFunctionOptions = { zoneKey: "az" };
 * assert.equal(options.zoneKey, "az");
 * ```
 */
export interface OwnerSetFunctionOptions {
  /**
   * Metadata key holding an executor's zone.
   * @default {"zone"}
   */
  readonly zoneKey?: string;
}

/**
 * The rendezvous weight of `executorId` for `shardKey`:
 * `mix32(stableHash(shardKey, seed) XOR stableHash(executorId, seed))`, an
 * unsigned 32-bit integer. Exported so that other implementations can check
 * theirs against it.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { rendezvousWeight } from "./owner_set.ts";
 *
 * const w = rendezvousWeight(1, "customer-42", "exec-7");
 * assert.equal(w, rendezvousWeight(1, "customer-42", "exec-7"));
 * assert.ok(w >= 0 && w < 2 ** 32);
 * ```
 */
export function rendezvousWeight(seed: number, shardKey: string, executorId: string): number {
  return mix32(stableHash(shardKey, seed) ^ stableHash(executorId, seed));
}

/**
 * The owner set of `shardKey`: `min(k, executors)` distinct executor ids,
 * computed only from (`seed`, `shardKey`, the executors and their zones), so
 * every client that knows the executor list gets the same answer without
 * asking the service. The input order of `executors` does not matter.
 *
 * Executors are ranked by {@linkcode rendezvousWeight} (highest first, ties
 * by id) and taken in rank order, skipping an executor whose zone already
 * holds its share: zones are filled evenly ("water-filling": no zone holds
 * two more replicas than another unless that one has no executor left). The
 * first id is the primary.
 *
 * Properties (tested):
 * - **Stable under removal**: removing an executor that is not in the set
 *   leaves the set unchanged; removing a member replaces exactly that
 *   member (when enough executors remain) and keeps the others.
 * - **Stable under addition**: adding an executor either leaves the set
 *   unchanged or puts the new executor in it in place of exactly one member.
 * - **Balanced in expectation**: over many keys each executor of a zone is
 *   chosen equally often.
 *
 * @param seed A 32-bit integer; different seeds give unrelated placements.
 * @param shardKey The shard (or tenant) key.
 * @param executors The eligible executors, as ids or with metadata.
 * @param k Owners wanted (≥ 1).
 * @throws {RangeError} When `seed` or `k` is not an integer (k ≥ 1), or an id repeats.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { ownerSet } from "./owner_set.ts";
 *
 * const executors = ["a1", "a2", "b1", "b2"].map((id) => ({ id, metadata: { zone: id[0]! } }));
 * const owners = ownerSet(7, "customer-42", executors, 2);
 * assert.deepEqual(owners.map((id) => id[0]).sort(), ["a", "b"]);
 * assert.deepEqual(ownerSet(7, "customer-42", [...executors].reverse(), 2), owners);
 * ```
 */
export function ownerSet(
  seed: number,
  shardKey: string,
  executors: readonly ExecutorLike[],
  k: number,
  options: OwnerSetFunctionOptions = {},
): string[] {
  return ownerSetFunction(seed, executors, options)(shardKey, k);
}

/**
 * {@linkcode ownerSet} with the executor list prepared once (ids sorted,
 * zones indexed, ids hashed): returns a function of `(shardKey, k)` that
 * gives exactly what `ownerSet(seed, shardKey, executors, k, options)` gives,
 * in O(executors · k) per call instead of a sort. For clients that look up
 * many keys against one executor list.
 *
 * @throws {RangeError} When `seed` is not an integer or an id repeats; the returned function throws when `k` is not an integer ≥ 1.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { ownerSet, ownerSetFunction } from "./owner_set.ts";
 *
 * const executors = ["a", "b", "c", "d"];
 * const ownersOf = ownerSetFunction(3, executors);
 * assert.deepEqual(ownersOf("customer-1", 2), ownerSet(3, "customer-1", executors, 2));
 * ```
 */
export function ownerSetFunction(
  seed: number,
  executors: readonly ExecutorLike[],
  options: OwnerSetFunctionOptions = {},
): (shardKey: string, k: number) => string[] {
  if (!Number.isInteger(seed)) {
    throw new RangeError(`Cannot compute owners: seed must be an integer, received ${seed}`);
  }
  const index = indexExecutors(executors, options.zoneKey ?? "zone");
  const hashes = Uint32Array.from(index.ids, (id) => stableHash(id, seed));
  const sizes = Int32Array.from(index.members, (m) => m.length);
  const quotas = new Map<number, ZoneQuota>();
  return (shardKey: string, k: number): string[] => {
    if (!Number.isInteger(k) || k < 1) {
      throw new RangeError(`Cannot compute owners: k must be an integer ≥ 1, received ${k}`);
    }
    const width = Math.min(k, index.ids.length);
    let quota = quotas.get(width);
    if (quota === undefined) quotas.set(width, quota = zoneQuota(sizes, width));
    const keyHash = stableHash(shardKey, seed);
    // Only a zone's best (base + extra) executors can be taken: keep those, by rank.
    const candidates: { e: number; w: number }[] = [];
    index.members.forEach((members, z) => {
      const keep = quota.base[z]! + quota.extra[z]!;
      const best: { e: number; w: number }[] = [];
      for (const e of members) {
        const w = mix32(keyHash ^ hashes[e]!);
        if (best.length === keep && !outranks(w, e, best[keep - 1]!)) continue;
        if (best.length === keep) best.pop();
        let i = best.length;
        while (i > 0 && outranks(w, e, best[i - 1]!)) i--;
        best.splice(i, 0, { e, w });
      }
      candidates.push(...best);
    });
    candidates.sort((a, b) => b.w - a.w || a.e - b.e);
    const tally = new ZoneTally(quota);
    const owners: string[] = [];
    for (const { e } of candidates) {
      if (owners.length === width) break;
      const z = index.zoneOf[e]!;
      if (!tally.canAdd(z)) continue;
      tally.add(z);
      owners.push(index.ids[e]!);
    }
    return owners;
  };
}

/** Whether executor `e` with weight `w` ranks before `other`: higher weight, then lower index (id order). */
function outranks(w: number, e: number, other: { e: number; w: number }): boolean {
  return w > other.w || (w === other.w && e < other.e);
}
