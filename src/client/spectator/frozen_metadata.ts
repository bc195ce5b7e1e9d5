/**
 * The executor metadata a placement hands out: frozen and without a
 * prototype. Used by `placement.ts` (snapshots), `apply_delta.ts` (deltas)
 * and `owner_fallback.ts`; in a file of its own so none of them imports
 * another for it.
 *
 * @module
 */

/**
 * A frozen copy of `metadata` without a prototype, so that looking up a key
 * such as `"toString"` finds only what the executor reported.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { frozenMetadata } from "./frozen_metadata.ts";
 *
 * const metadata = frozenMetadata({ address: "a:80" });
 * assert.equal(metadata["toString"], undefined);
 * assert.ok(Object.isFrozen(metadata));
 * ```
 */
export function frozenMetadata(
  metadata: Readonly<Record<string, string>>,
): Readonly<Record<string, string>> {
  return Object.freeze(Object.assign(Object.create(null) as Record<string, string>, metadata));
}
