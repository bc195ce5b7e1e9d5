/**
 * Micro-benchmark of key-range lookups as the spectator will do them: hash a
 * key (XXH64 of its UTF-8 bytes) and find its slice by binary search, over
 * 3,200 slices (100 executors × 32). One iteration is 100,000 lookups, so
 * lookups per second = 100,000 / iteration time. The `bigint` cases time the
 * same hash written on `bigint` (the alternative to 32-bit halves).
 *
 * Run: `deno bench --allow-all bench/ranges_bench.ts`
 *
 * @module
 */
import { hashKeyInto } from "../src/shared/key_hash.ts";
import { xxh64BigInt } from "../src/shared/_xxh64_bigint.ts";
import { SliceMap } from "../src/core/slices.ts";
import { LOOKUPS_PER_ITERATION } from "./lib/micro_sizes.ts";

const SLICES = 3_200;
const EXECUTORS = 100;

const map = SliceMap.initial(SLICES);
const owners = Array.from({ length: SLICES }, (_, i) => `executor-${i % EXECUTORS}`);
const keys = Array.from({ length: LOOKUPS_PER_ITERATION }, (_, i) => `user:${i * 7919}`);
const numbers = keys.map((_, i) => i * 7919);
const encoder = new TextEncoder();
const out = new Uint32Array(2);
let sink = 0;

Deno.bench({
  name: "hash only, 32-bit halves",
  group: "hash",
  baseline: true,
  fn() {
    for (let i = 0; i < keys.length; i++) hashKeyInto(keys[i]!, out), sink ^= out[1]!;
  },
});

Deno.bench({
  name: "hash only, bigint",
  group: "hash",
  fn() {
    for (let i = 0; i < keys.length; i++) {
      sink ^= Number(xxh64BigInt(encoder.encode(keys[i]!)) & 1n);
    }
  },
});

Deno.bench({
  name: "ownerOf (hash + binary search), keys held as strings",
  group: "ownerOf",
  baseline: true,
  fn() {
    for (let i = 0; i < keys.length; i++) sink ^= owners[map.indexOfKey(keys[i]!)]!.length;
  },
});

Deno.bench({
  name: "ownerOf (hash + binary search), key string built per lookup",
  group: "ownerOf",
  fn() {
    for (let i = 0; i < numbers.length; i++) {
      sink ^= owners[map.indexOfKey(`user:${numbers[i]!}`)]!.length;
    }
  },
});

globalThis.addEventListener("unload", () => {
  if (sink === 0.5) throw new Error("unreachable: keeps the lookups observable");
});
