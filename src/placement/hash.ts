/**
 * A small stable string hash for placement decisions that must agree across
 * processes, restarts and languages.
 *
 * @module
 */

const FNV_OFFSET_BASIS = 0x811c9dc5;
const FNV_PRIME = 0x01000193;

/**
 * The MurmurHash3 32-bit finalizer ("fmix32"): a bijection on 32-bit
 * integers in which every input bit affects every output bit.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { mix32 } from "./hash.ts";
 *
 * assert.equal(mix32(0), 0);
 * assert.notEqual(mix32(1), mix32(2));
 * ```
 */
export function mix32(value: number): number {
  let h = value >>> 0;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/**
 * Hashes `text` to an unsigned 32-bit integer: 32-bit FNV-1a over the UTF-8
 * bytes of `text`, starting from the offset basis 0x811c9dc5 XOR `seed`,
 * then the MurmurHash3 finalizer ({@linkcode mix32}) for avalanche (plain
 * FNV-1a mixes its last bytes poorly). The definition is fixed: any client, in
 * any language, that implements these three steps gets the same numbers, so
 * it may be used for placement that must agree without coordination. Lone
 * UTF-16 surrogates are encoded as U+FFFD, like `TextEncoder` does.
 *
 * Not cryptographic: do not use it where an adversary chooses keys to collide.
 *
 * @param text The string to hash.
 * @param seed A 32-bit seed; different seeds give unrelated hash functions.
 * @default seed 0
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { stableHash } from "./hash.ts";
 *
 * assert.equal(stableHash("shard-1"), stableHash("shard-1"));
 * assert.notEqual(stableHash("shard-1"), stableHash("shard-1", 7));
 * assert.equal(stableHash("é"), stableHash("\u00e9"));
 * ```
 */
export function stableHash(text: string, seed = 0): number {
  let h = (FNV_OFFSET_BASIS ^ seed) >>> 0;
  const byte = (b: number): void => {
    h = Math.imul(h ^ b, FNV_PRIME);
  };
  for (let i = 0; i < text.length; i++) {
    let code = text.charCodeAt(i);
    if (code >= 0xd800 && code <= 0xdfff) {
      const next = text.charCodeAt(i + 1);
      if (code <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
        code = 0x10000 + ((code - 0xd800) << 10) + (next - 0xdc00);
        i++;
      } else {
        code = 0xfffd;
      }
    }
    if (code < 0x80) {
      byte(code);
    } else if (code < 0x800) {
      byte(0xc0 | (code >> 6));
      byte(0x80 | (code & 0x3f));
    } else if (code < 0x10000) {
      byte(0xe0 | (code >> 12));
      byte(0x80 | ((code >> 6) & 0x3f));
      byte(0x80 | (code & 0x3f));
    } else {
      byte(0xf0 | (code >> 18));
      byte(0x80 | ((code >> 12) & 0x3f));
      byte(0x80 | ((code >> 6) & 0x3f));
      byte(0x80 | (code & 0x3f));
    }
  }
  return mix32(h);
}
