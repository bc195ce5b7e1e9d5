/**
 * From an executor's Space-Saving sketch of a slice to the planner's top keys.
 *
 * @module
 */
import type { SpaceSaving } from "../../shared/space_saving.ts";
import type { KeyLoad } from "./types.ts";

/**
 * The planner's top keys of a slice from its sketch: each kept key with the
 * load it surely has (`count - error`), heaviest first, zero loads left out.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { SpaceSaving } from "../../shared/space_saving.ts";
 * import { topKeysOf } from "./top_keys.ts";
 *
 * const sketch = new SpaceSaving(4);
 * sketch.offer("hot", 90);
 * sketch.offer("cold", 1);
 * assert.deepEqual(topKeysOf(sketch, 1), [{ key: "hot", load: 90 }]);
 * ```
 */
export function topKeysOf(sketch: SpaceSaving, n?: number): KeyLoad[] {
  return sketch.top(n).map((h) => ({ key: h.key, load: h.count - h.error }))
    .filter((k) => k.load > 0);
}
