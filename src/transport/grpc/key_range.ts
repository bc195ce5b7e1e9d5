/**
 * A slice of a key-range namespace on the wire: `KeyRange`, with the last
 * point included (the wire's fixed64 cannot hold the line's end, 2^64).
 *
 * @module
 */
import type { Slice } from "../../core/slices.ts";
import type { KeyRange } from "../../wire/proto.ts";

/**
 * `slice` as a `KeyRange` message.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { keyRangeOf } from "./key_range.ts";
 *
 * assert.deepEqual(keyRangeOf({ id: 3, start: 0n, end: 1n << 64n, generation: 2 }), {
 *   firstPoint: "0",
 *   lastPoint: "18446744073709551615",
 *   generation: 2,
 * });
 * ```
 */
export function keyRangeOf(slice: Slice): KeyRange {
  return {
    firstPoint: String(slice.start),
    lastPoint: String(slice.end - 1n),
    generation: slice.generation,
  };
}
