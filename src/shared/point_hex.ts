/**
 * How a point of the 64-bit hash line is written for people: 16 hex digits,
 * zero-padded, as `smctl slice list` shows slice ranges and as the server
 * names a point in a refused slice edit. In `shared/` so that the server's
 * messages and smctl's tables write points the same way.
 *
 * @module
 */

/**
 * `point` (0 to 2^64 - 1) as 16 lower-case hex digits.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { pointHex } from "./point_hex.ts";
 *
 * assert.equal(pointHex(0n), "0000000000000000");
 * assert.equal(pointHex(1n << 63n), "8000000000000000");
 * assert.equal(pointHex((1n << 64n) - 1n), "ffffffffffffffff");
 * ```
 */
export function pointHex(point: bigint): string {
  return point.toString(16).padStart(16, "0");
}
