/**
 * The hash of a key-range namespace: XXH64 (xxHash, 64-bit, seed 0) of the
 * key's UTF-8 bytes, the point of the key on the 64-bit hash line.
 *
 * ASCII keys are hashed in WebAssembly (`_xxh64_wasm.ts`, on 64-bit
 * integers); the rest, and every key where WebAssembly is missing, with
 * 32-bit halves and `Math.imul`, never `BigInt`, because the spectator
 * hashes on every lookup (bench/ranges_bench.ts: over 10× faster than the
 * same code on `bigint`). Test vectors checked against the
 * reference C library: `tests/vectors/key_hash_vectors.json`.
 *
 * Part of the contract with clients (one that routes by key must hash as the
 * server does), hence in `shared/`, which the server and the SDKs import.
 *
 * @module
 */

import { hashShortAscii } from "./_key_hash_ascii.ts";
import { hashAsciiWasm } from "./_xxh64_wasm.ts";

// The five XXH64 primes, as [high, low] 32-bit halves.
const P1H = 0x9e3779b1, P1L = 0x85ebca87;
const P2H = 0xc2b2ae3d, P2L = 0x27d4eb4f;
const P3H = 0x165667b1, P3L = 0x9e3779f9;
const P4H = 0x85ebca77, P4L = 0xc2b2ae63;
const P5H = 0x27d4eb2f, P5L = 0x165667c5;

// Results of the 64-bit helpers (module scratch: no allocation per call).
let rh = 0, rl = 0;

/** rh:rl = a * b mod 2^64. */
function mul(ah: number, al: number, bh: number, bl: number): void {
  const a0 = al & 0xffff, a1 = al >>> 16, b0 = bl & 0xffff, b1 = bl >>> 16;
  const t = a1 * b0 + ((a0 * b0) >>> 16);
  const w = (t & 0xffff) + a0 * b1;
  const carry = a1 * b1 + (t >>> 16) + (w >>> 16);
  rh = (Math.imul(ah, bl) + Math.imul(al, bh) + carry) >>> 0;
  rl = Math.imul(al, bl) >>> 0;
}

/** The high half of a * b mod 2^64 (the low half is `Math.imul(al, bl) >>> 0`). */
function mulHi(ah: number, al: number, bh: number, bl: number): number {
  const a0 = al & 0xffff, a1 = al >>> 16, b0 = bl & 0xffff, b1 = bl >>> 16;
  const m = a1 * b0, n = a0 * b1;
  const mid = (m & 0xffff) + (n & 0xffff) + ((a0 * b0) >>> 16);
  const high = a1 * b1 + (m >>> 16) + (n >>> 16) + (mid >>> 16);
  return (Math.imul(ah, bl) + Math.imul(al, bh) + high) >>> 0;
}

/** rh:rl = a + b mod 2^64. */
function add(ah: number, al: number, bh: number, bl: number): void {
  const lo = al + bl;
  rl = lo >>> 0;
  rh = (ah + bh + (lo > 0xffffffff ? 1 : 0)) >>> 0;
}

/** rh:rl = rotl(a, r) for 0 < r < 32. */
function rotl(ah: number, al: number, r: number): void {
  rh = ((ah << r) | (al >>> (32 - r))) >>> 0;
  rl = ((al << r) | (ah >>> (32 - r))) >>> 0;
}

/** rh:rl = round(acc, lane) = rotl(acc + lane * P2, 31) * P1. */
function round(ah: number, al: number, lh: number, ll: number): void {
  mul(lh, ll, P2H, P2L);
  add(ah, al, rh, rl);
  rotl(rh, rl, 31);
  mul(rh, rl, P1H, P1L);
}

/** rh:rl = (acc ^ round(0, v)) * P1 + P4. */
function mergeRound(ah: number, al: number, vh: number, vl: number): void {
  round(0, 0, vh, vl);
  mul((ah ^ rh) >>> 0, (al ^ rl) >>> 0, P1H, P1L);
  add(rh, rl, P4H, P4L);
}

let bytes = new Uint8Array(256);

/** Writes the UTF-8 bytes of `key` into `bytes` (grown as needed); lone surrogates as U+FFFD. */
function encode(key: string): number {
  if (bytes.length < key.length * 3) bytes = new Uint8Array(key.length * 3 + 64);
  const b = bytes;
  let n = 0;
  for (let i = 0; i < key.length; i++) {
    let c = key.charCodeAt(i);
    if (c < 0x80) {
      b[n++] = c;
      continue;
    }
    if (c < 0x800) {
      b[n++] = 0xc0 | (c >> 6);
      b[n++] = 0x80 | (c & 63);
      continue;
    }
    if (c >= 0xd800 && c <= 0xdfff) {
      const next = i + 1 < key.length ? key.charCodeAt(i + 1) : 0;
      if (c <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
        c = 0x10000 + ((c - 0xd800) << 10) + (next - 0xdc00);
        i++;
        b[n++] = 0xf0 | (c >> 18);
        b[n++] = 0x80 | ((c >> 12) & 63);
        b[n++] = 0x80 | ((c >> 6) & 63);
        b[n++] = 0x80 | (c & 63);
        continue;
      }
      c = 0xfffd;
    }
    b[n++] = 0xe0 | (c >> 12);
    b[n++] = 0x80 | ((c >> 6) & 63);
    b[n++] = 0x80 | (c & 63);
  }
  return n;
}

function u32(b: Uint8Array, i: number): number {
  return (b[i]! | (b[i + 1]! << 8) | (b[i + 2]! << 16) | (b[i + 3]! << 24)) >>> 0;
}

/**
 * Hashes `key` and writes its point as two unsigned 32-bit halves:
 * `out[0]` the high half, `out[1]` the low half. Allocates nothing (the
 * fast path for lookups).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { hashKeyInto } from "./key_hash.ts";
 *
 * const out = new Uint32Array(2);
 * hashKeyInto("", out);
 * assert.deepEqual([...out], [0xef46db37, 0x51d8e999]); // XXH64("", 0)
 * ```
 */
export function hashKeyInto(key: string, out: Uint32Array): void {
  if (!hashAsciiWasm(key, out)) hashKeyIntoPortable(key, out);
}

/**
 * {@linkcode hashKeyInto} without WebAssembly: the same points, from
 * JavaScript alone (what `hashKeyInto` falls back to for keys that are not
 * ASCII, and everywhere WebAssembly is missing).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { hashKeyIntoPortable } from "./key_hash.ts";
 *
 * const out = new Uint32Array(2);
 * hashKeyIntoPortable("a", out);
 * assert.deepEqual([...out], [0xd24ec4f1, 0xa98c6e5b]);
 * ```
 */
export function hashKeyIntoPortable(key: string, out: Uint32Array): void {
  if (key.length < 32 && hashShortAscii(key, out)) return;
  const len = encode(key);
  const b = bytes;
  let i = 0;
  let hh: number, hl: number;
  if (len >= 32) {
    add(P1H, P1L, P2H, P2L);
    let v1h = rh, v1l = rl, v2h = P2H, v2l = P2L, v3h = 0, v3l = 0;
    add(0, 0, ~P1H >>> 0, ~P1L >>> 0); // -P1 = ~P1 + 1
    add(rh, rl, 0, 1);
    let v4h = rh, v4l = rl;
    for (; i + 32 <= len; i += 32) {
      round(v1h, v1l, u32(b, i + 4), u32(b, i)), v1h = rh, v1l = rl;
      round(v2h, v2l, u32(b, i + 12), u32(b, i + 8)), v2h = rh, v2l = rl;
      round(v3h, v3l, u32(b, i + 20), u32(b, i + 16)), v3h = rh, v3l = rl;
      round(v4h, v4l, u32(b, i + 28), u32(b, i + 24)), v4h = rh, v4l = rl;
    }
    rotl(v1h, v1l, 1);
    let sh = rh, sl = rl;
    rotl(v2h, v2l, 7), add(sh, sl, rh, rl), sh = rh, sl = rl;
    rotl(v3h, v3l, 12), add(sh, sl, rh, rl), sh = rh, sl = rl;
    rotl(v4h, v4l, 18), add(sh, sl, rh, rl);
    mergeRound(rh, rl, v1h, v1l);
    mergeRound(rh, rl, v2h, v2l);
    mergeRound(rh, rl, v3h, v3l);
    mergeRound(rh, rl, v4h, v4l);
    hh = rh, hl = rl;
  } else {
    hh = P5H, hl = P5L;
  }
  // The tail, on locals only (every key under 32 bytes takes just this path).
  let x = hl + len;
  hl = x >>> 0, hh = (hh + (x > 0xffffffff ? 1 : 0)) >>> 0;
  let kh: number, kl: number, yh: number, yl: number;
  for (; i + 8 <= len; i += 8) {
    // k = round(0, lane) = rotl(lane * P2, 31) * P1
    const ll = u32(b, i), lh = u32(b, i + 4);
    kh = mulHi(lh, ll, P2H, P2L), kl = Math.imul(ll, P2L) >>> 0;
    yh = ((kh << 31) | (kl >>> 1)) >>> 0, yl = ((kl << 31) | (kh >>> 1)) >>> 0;
    kh = mulHi(yh, yl, P1H, P1L), kl = Math.imul(yl, P1L) >>> 0;
    // h = rotl(h ^ k, 27) * P1 + P4
    hh ^= kh, hl ^= kl;
    yh = ((hh << 27) | (hl >>> 5)) >>> 0, yl = ((hl << 27) | (hh >>> 5)) >>> 0;
    hh = mulHi(yh, yl, P1H, P1L), hl = Math.imul(yl, P1L) >>> 0;
    x = hl + P4L;
    hl = x >>> 0, hh = (hh + P4H + (x > 0xffffffff ? 1 : 0)) >>> 0;
  }
  if (i + 4 <= len) {
    // h = rotl(h ^ (u32 * P1), 23) * P2 + P3
    const w = u32(b, i);
    hh = (hh ^ mulHi(0, w, P1H, P1L)) >>> 0, hl = (hl ^ Math.imul(w, P1L)) >>> 0;
    yh = ((hh << 23) | (hl >>> 9)) >>> 0, yl = ((hl << 23) | (hh >>> 9)) >>> 0;
    hh = mulHi(yh, yl, P2H, P2L), hl = Math.imul(yl, P2L) >>> 0;
    x = hl + P3L;
    hl = x >>> 0, hh = (hh + P3H + (x > 0xffffffff ? 1 : 0)) >>> 0;
    i += 4;
  }
  for (; i < len; i++) {
    // h = rotl(h ^ (byte * P5), 11) * P1; byte * P5's high half is exact in a double here
    const c = b[i]!;
    const ch = (Math.imul(c, P5H) + Math.floor((c * P5L) / 4294967296)) >>> 0;
    hh = (hh ^ ch) >>> 0, hl = (hl ^ Math.imul(c, P5L)) >>> 0;
    yh = ((hh << 11) | (hl >>> 21)) >>> 0, yl = ((hl << 11) | (hh >>> 21)) >>> 0;
    hh = mulHi(yh, yl, P1H, P1L), hl = Math.imul(yl, P1L) >>> 0;
  }
  // Avalanche: h ^= h >>> 33; h *= P2; h ^= h >>> 29; h *= P3; h ^= h >>> 32.
  hl = (hl ^ (hh >>> 1)) >>> 0;
  yh = mulHi(hh, hl, P2H, P2L), yl = Math.imul(hl, P2L) >>> 0;
  hl = (yl ^ ((yh << 3) | (yl >>> 29))) >>> 0;
  hh = (yh ^ (yh >>> 29)) >>> 0;
  yh = mulHi(hh, hl, P3H, P3L), yl = Math.imul(hl, P3L) >>> 0;
  hh = yh, hl = yl;
  out[0] = hh;
  out[1] = (hl ^ hh) >>> 0;
}

const scratch = new Uint32Array(2);

/**
 * The point of `key` on the hash line: XXH64 of its UTF-8 bytes with seed 0,
 * as an unsigned 64-bit `bigint` (for planning and display; lookups use
 * {@linkcode hashKeyInto}).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { keyHash } from "./key_hash.ts";
 *
 * assert.equal(keyHash("a"), 0xd24ec4f1a98c6e5bn);
 * ```
 */
export function keyHash(key: string): bigint {
  hashKeyInto(key, scratch);
  return (BigInt(scratch[0]!) << 32n) | BigInt(scratch[1]!);
}

/**
 * The point of `key` written as 16 lowercase hex digits, the canonical
 * (big-endian) form that `xxhsum -H1` and every XXH64 library print.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { keyHashHex } from "./key_hash.ts";
 *
 * assert.equal(keyHashHex("hello world"), "45ab6734b21e6968");
 * ```
 */
export function keyHashHex(key: string): string {
  hashKeyInto(key, scratch);
  return scratch[0]!.toString(16).padStart(8, "0") + scratch[1]!.toString(16).padStart(8, "0");
}
