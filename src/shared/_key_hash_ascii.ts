/**
 * The fast path of `key_hash.ts`: XXH64 (seed 0) of a key shorter than 32
 * characters, all ASCII, read straight from the string (its UTF-8 bytes are
 * its char codes), on 32-bit halves and locals only. Most keys an
 * application routes are short ASCII ids ("tenant-4711", "user:42"); skipping
 * the UTF-8 encoding into a buffer and the helpers' shared scratch makes the
 * hash about 1.6 times faster here (bench/ranges_bench.ts). Any other key
 * (longer, or with a non-ASCII character) takes the general path, which the
 * property tests check this one against.
 *
 * @module
 */

// The XXH64 primes as [high, low] 32-bit halves (as in key_hash.ts).
const P1H = 0x9e3779b1, P1L = 0x85ebca87;
const P2H = 0xc2b2ae3d, P2L = 0x27d4eb4f;
const P3H = 0x165667b1, P3L = 0x9e3779f9;
const P4H = 0x85ebca77, P4L = 0xc2b2ae63;
const P5H = 0x27d4eb2f, P5L = 0x165667c5;

/** The high 32 bits of the 64-bit product of two unsigned 32-bit numbers. */
function mulhi32(a: number, b: number): number {
  const a0 = a & 0xffff, a1 = a >>> 16, b0 = b & 0xffff, b1 = b >>> 16;
  const m = a1 * b0, n = a0 * b1;
  const mid = (m & 0xffff) + (n & 0xffff) + ((a0 * b0) >>> 16);
  return (a1 * b1 + (m >>> 16) + (n >>> 16) + (mid >>> 16)) >>> 0;
}

/**
 * Writes XXH64 of `key` into `out` (`[high, low]`) and returns true when
 * `key` is shorter than 32 characters and all ASCII; returns false (writing
 * nothing that counts) otherwise.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { hashShortAscii } from "./_key_hash_ascii.ts";
 *
 * const out = new Uint32Array(2);
 * assert.equal(hashShortAscii("a", out), true);
 * assert.deepEqual([...out], [0xd24ec4f1, 0xa98c6e5b]);
 * assert.equal(hashShortAscii("é", out), false);
 * ```
 */
export function hashShortAscii(key: string, out: Uint32Array): boolean {
  const len = key.length;
  if (len >= 32) return false;
  let hh = P5H, hl = (P5L + len) >>> 0;
  if (P5L + len > 0xffffffff) hh = (hh + 1) >>> 0;
  let i = 0;
  let kh: number, kl: number, yh: number, yl: number, x: number;
  for (; i + 8 <= len; i += 8) {
    const c0 = key.charCodeAt(i),
      c1 = key.charCodeAt(i + 1),
      c2 = key.charCodeAt(i + 2),
      c3 = key.charCodeAt(i + 3);
    const c4 = key.charCodeAt(i + 4),
      c5 = key.charCodeAt(i + 5),
      c6 = key.charCodeAt(i + 6),
      c7 = key.charCodeAt(i + 7);
    if ((c0 | c1 | c2 | c3 | c4 | c5 | c6 | c7) >= 0x80) return false;
    const ll = (c0 | (c1 << 8) | (c2 << 16) | (c3 << 24)) >>> 0;
    const lh = (c4 | (c5 << 8) | (c6 << 16) | (c7 << 24)) >>> 0;
    kh = (mulhi32(ll, P2L) + Math.imul(lh, P2L) + Math.imul(ll, P2H)) >>> 0,
      kl = Math.imul(ll, P2L) >>> 0;
    yh = ((kh << 31) | (kl >>> 1)) >>> 0, yl = ((kl << 31) | (kh >>> 1)) >>> 0;
    kh = (mulhi32(yl, P1L) + Math.imul(yh, P1L) + Math.imul(yl, P1H)) >>> 0,
      kl = Math.imul(yl, P1L) >>> 0;
    hh = (hh ^ kh) >>> 0, hl = (hl ^ kl) >>> 0;
    yh = ((hh << 27) | (hl >>> 5)) >>> 0, yl = ((hl << 27) | (hh >>> 5)) >>> 0;
    hh = (mulhi32(yl, P1L) + Math.imul(yh, P1L) + Math.imul(yl, P1H)) >>> 0,
      hl = Math.imul(yl, P1L) >>> 0;
    x = hl + P4L;
    hl = x >>> 0, hh = (hh + P4H + (x > 0xffffffff ? 1 : 0)) >>> 0;
  }
  if (i + 4 <= len) {
    const c0 = key.charCodeAt(i),
      c1 = key.charCodeAt(i + 1),
      c2 = key.charCodeAt(i + 2),
      c3 = key.charCodeAt(i + 3);
    if ((c0 | c1 | c2 | c3) >= 0x80) return false;
    const w = (c0 | (c1 << 8) | (c2 << 16) | (c3 << 24)) >>> 0;
    hh = (hh ^ ((mulhi32(w, P1L) + Math.imul(w, P1H)) >>> 0)) >>> 0,
      hl = (hl ^ Math.imul(w, P1L)) >>> 0;
    yh = ((hh << 23) | (hl >>> 9)) >>> 0, yl = ((hl << 23) | (hh >>> 9)) >>> 0;
    hh = (mulhi32(yl, P2L) + Math.imul(yh, P2L) + Math.imul(yl, P2H)) >>> 0,
      hl = Math.imul(yl, P2L) >>> 0;
    x = hl + P3L;
    hl = x >>> 0, hh = (hh + P3H + (x > 0xffffffff ? 1 : 0)) >>> 0;
    i += 4;
  }
  for (; i < len; i++) {
    const c = key.charCodeAt(i);
    if (c >= 0x80) return false;
    const ch = (mulhi32(c, P5L) + Math.imul(c, P5H)) >>> 0;
    hh = (hh ^ ch) >>> 0, hl = (hl ^ Math.imul(c, P5L)) >>> 0;
    yh = ((hh << 11) | (hl >>> 21)) >>> 0, yl = ((hl << 11) | (hh >>> 21)) >>> 0;
    hh = (mulhi32(yl, P1L) + Math.imul(yh, P1L) + Math.imul(yl, P1H)) >>> 0,
      hl = Math.imul(yl, P1L) >>> 0;
  }
  hl = (hl ^ (hh >>> 1)) >>> 0;
  yh = (mulhi32(hl, P2L) + Math.imul(hh, P2L) + Math.imul(hl, P2H)) >>> 0,
    yl = Math.imul(hl, P2L) >>> 0;
  hl = (yl ^ ((yh << 3) | (yl >>> 29))) >>> 0;
  hh = (yh ^ (yh >>> 29)) >>> 0;
  yh = (mulhi32(hl, P3L) + Math.imul(hh, P3L) + Math.imul(hl, P3H)) >>> 0,
    yl = Math.imul(hl, P3L) >>> 0;
  out[0] = yh;
  out[1] = (yl ^ yh) >>> 0;
  return true;
}
