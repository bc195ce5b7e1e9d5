/**
 * Stateless owner sets for clients: every client that knows the same seed,
 * shard key and executor list (with zones) computes the same owners without
 * asking anyone — rendezvous hashing with zone spread, the pure function of
 * `src/placement/owner_set.ts` (see docs/placement.md for the exact hash and
 * test vectors). Use it where no Shard Manager should be on the request path,
 * e.g. a client choosing which k replicas of a static fleet to try, in order.
 *
 * `src/placement/` is pure shared code (no I/O, no server imports; checked by
 * `tests/boundaries_test.ts`), so the SDK may re-export it.
 *
 * @example Pick two owners in different zones, then retry across them
 * ```ts
 * import assert from "node:assert/strict";
 * import { ownerSet, ownerSetFunction } from "./owner_set.ts";
 *
 * const fleet = [
 *   { id: "a1", metadata: { zone: "a" } },
 *   { id: "a2", metadata: { zone: "a" } },
 *   { id: "b1", metadata: { zone: "b" } },
 *   { id: "b2", metadata: { zone: "b" } },
 * ];
 * const owners = ownerSet(42, "customer-7", fleet, 2);
 * assert.equal(new Set(owners.map((id) => id[0])).size, 2); // one per zone
 *
 * // Many lookups against one list: prepare it once.
 * const ownersOf = ownerSetFunction(42, fleet);
 * assert.deepEqual(ownersOf("customer-7", 2), owners);
 * ```
 *
 * @module
 */
export {
  ownerSet,
  ownerSetFunction,
  type OwnerSetFunctionOptions,
  rendezvousWeight,
} from "../placement/owner_set.ts";
export { stableHash } from "../placement/hash.ts";
export type { ExecutorLike, PlacementExecutor } from "../placement/types.ts";
