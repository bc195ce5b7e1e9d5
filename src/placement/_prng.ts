/**
 * A tiny seeded pseudo-random generator for the placement planners and their
 * tests. Not part of the public API.
 *
 * @module
 */

/**
 * Returns a generator of numbers in [0, 1) from a 32-bit seed, using the
 * mulberry32 recurrence: a Weyl sequence (step 0x6d2b79f5) scrambled by two
 * multiply-xorshift rounds. Equal seeds give equal sequences on every
 * platform; it is fast and good enough for tie-breaking and tests, not for
 * anything secret.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { prng } from "./_prng.ts";
 *
 * const a = prng(42);
 * const b = prng(42);
 * assert.equal(a(), b());
 * assert.ok(a() < 1);
 * ```
 */
export function prng(seed: number): () => number {
  let weyl = seed >>> 0;
  return function next(): number {
    weyl = (weyl + 0x6d2b79f5) >>> 0;
    let x = Math.imul(weyl ^ (weyl >>> 15), weyl | 1);
    x = (x + Math.imul(x ^ (x >>> 7), x | 61)) ^ x;
    x ^= x >>> 14;
    return (x >>> 0) / 0x1_0000_0000;
  };
}

/**
 * A random integer in [0, bound) drawn from `random`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { prng, randomBelow } from "./_prng.ts";
 *
 * const n = randomBelow(prng(1), 6);
 * assert.ok(Number.isInteger(n) && n >= 0 && n < 6);
 * ```
 */
export function randomBelow(random: () => number, bound: number): number {
  return Math.floor(random() * bound);
}
