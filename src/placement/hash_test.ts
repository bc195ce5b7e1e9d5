import assert from "node:assert/strict";
import { prng, randomBelow } from "./_fixtures.ts";
import { mix32, stableHash } from "./hash.ts";

/** FNV-1a over TextEncoder's bytes: an independent reference for the UTF-8 step. */
function referenceFnv(text: string, seed = 0): number {
  let h = (0x811c9dc5 ^ seed) >>> 0;
  for (const byte of new TextEncoder().encode(text)) h = Math.imul(h ^ byte, 0x01000193) >>> 0;
  return h;
}

Deno.test("stableHash is FNV-1a 32 over UTF-8, finalized by mix32 (published FNV test vectors)", () => {
  assert.equal(stableHash(""), mix32(0x811c9dc5));
  assert.equal(stableHash("a"), mix32(0xe40c292c));
  assert.equal(stableHash("foobar"), mix32(0xbf9cf968));
});

Deno.test("stableHash encodes every string as TextEncoder does, lone surrogates included", () => {
  const random = prng(1);
  const alphabet = ["a", "Z", "é", "€", "中", "😀", "\ud800", "\udfff", "\u0000", "ÿ"];
  for (let i = 0; i < 500; i++) {
    const text = Array.from(
      { length: randomBelow(random, 12) },
      () => alphabet[randomBelow(random, alphabet.length)],
    ).join("");
    const seed = randomBelow(random, 2 ** 32);
    assert.equal(stableHash(text, seed), mix32(referenceFnv(text, seed)), JSON.stringify(text));
  }
});

Deno.test("mix32 is a bijection that avalanches: one flipped input bit flips about half the output", () => {
  const random = prng(2);
  let flipped = 0;
  const trials = 2_000;
  for (let i = 0; i < trials; i++) {
    const x = randomBelow(random, 2 ** 32);
    const bit = 1 << randomBelow(random, 32);
    let diff = mix32(x) ^ mix32((x ^ bit) >>> 0);
    for (; diff !== 0; diff &= diff - 1) flipped++;
  }
  const mean = flipped / trials;
  assert.ok(mean > 15 && mean < 17, `mean flipped bits ${mean}`);
  const seen = new Set(Array.from({ length: 10_000 }, (_, i) => mix32(i)));
  assert.equal(seen.size, 10_000);
});

Deno.test("stableHash spreads similar keys evenly over buckets", () => {
  const buckets = new Array(16).fill(0);
  for (let i = 0; i < 16_000; i++) buckets[stableHash(`shard-${i}`) % 16]++;
  for (const count of buckets) assert.ok(count > 850 && count < 1150, `${buckets}`);
});
