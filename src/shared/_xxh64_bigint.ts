/**
 * XXH64 written plainly on `bigint` from the specification: the reference
 * that tests compare the fast 32-bit-halves code (`key_hash.ts`) with on
 * random keys, and the `bigint` variant that `bench/ranges_bench.ts` times.
 * Private to src/core.
 *
 * @module
 */

const M = (1n << 64n) - 1n;
const P1 = 0x9e3779b185ebca87n, P2 = 0xc2b2ae3d27d4eb4fn, P3 = 0x165667b19e3779f9n;
const P4 = 0x85ebca77c2b2ae63n, P5 = 0x27d4eb2f165667c5n;

const rotl = (x: bigint, r: bigint) => ((x << r) | (x >> (64n - r))) & M;
const round = (acc: bigint, lane: bigint) => (rotl((acc + lane * P2) & M, 31n) * P1) & M;
const merge = (acc: bigint, v: bigint) => (((acc ^ round(0n, v)) * P1) & M) + P4 & M;

function read(b: Uint8Array, i: number, n: number): bigint {
  let v = 0n;
  for (let j = n - 1; j >= 0; j--) v = (v << 8n) | BigInt(b[i + j]!);
  return v;
}

/**
 * XXH64 of `data` with seed 0, as an unsigned 64-bit bigint.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { xxh64BigInt } from "./_xxh64_bigint.ts";
 *
 * assert.equal(xxh64BigInt(new Uint8Array()), 0xef46db3751d8e999n);
 * ```
 */
export function xxh64BigInt(data: Uint8Array): bigint {
  const len = data.length;
  let i = 0;
  let h: bigint;
  if (len >= 32) {
    let v1 = (P1 + P2) & M, v2 = P2, v3 = 0n, v4 = (0n - P1) & M;
    for (; i + 32 <= len; i += 32) {
      v1 = round(v1, read(data, i, 8));
      v2 = round(v2, read(data, i + 8, 8));
      v3 = round(v3, read(data, i + 16, 8));
      v4 = round(v4, read(data, i + 24, 8));
    }
    h = (rotl(v1, 1n) + rotl(v2, 7n) + rotl(v3, 12n) + rotl(v4, 18n)) & M;
    for (const v of [v1, v2, v3, v4]) h = merge(h, v);
  } else {
    h = P5;
  }
  h = (h + BigInt(len)) & M;
  for (; i + 8 <= len; i += 8) h = ((rotl(h ^ round(0n, read(data, i, 8)), 27n) * P1) + P4) & M;
  if (i + 4 <= len) {
    h = ((rotl(h ^ ((read(data, i, 4) * P1) & M), 23n) * P2) + P3) & M;
    i += 4;
  }
  for (; i < len; i++) h = (rotl(h ^ ((BigInt(data[i]!) * P5) & M), 11n) * P1) & M;
  h ^= h >> 33n;
  h = (h * P2) & M;
  h ^= h >> 29n;
  h = (h * P3) & M;
  return h ^ (h >> 32n);
}
