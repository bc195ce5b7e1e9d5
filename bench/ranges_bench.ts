/**
 * Micro-benchmark of key-range lookups as the spectator will do them: hash a
 * key (XXH64 of its UTF-8 bytes) and find its slice by binary search, over
 * 3,200 slices (100 executors × 32), on the server's `SliceMap` and on the
 * spectator's `KeyRoutes` (which also checks for gaps and then looks the
 * slice's owner up by its key, as `ownerOf` will). One iteration is 100,000 lookups, so
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
import { KeyRoutes } from "../src/client/spectator/key_routes.ts";
import { LOOKUPS_PER_ITERATION } from "./lib/micro_sizes.ts";

const SLICES = 3_200;
const EXECUTORS = 100;

const map = SliceMap.initial(SLICES);
// The spectator's routes over the same slices (its `ownerOf(key)` path: hash, search, gap check).
const routes = KeyRoutes.of(map.slices.map((s) => ({
  sliceKey: String(s.id),
  firstPoint: s.start,
  lastPoint: s.end - 1n,
  generation: s.generation,
})));
const owners = Array.from({ length: SLICES }, (_, i) => `executor-${i % EXECUTORS}`);
const ownerOfSlice = new Map(map.slices.map((s, i) => [String(s.id), owners[i]!]));
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

Deno.bench({
  name: "spectator routes (KeyRoutes: hash, search, gap check, then the slice's owner)",
  group: "ownerOf",
  fn() {
    for (let i = 0; i < keys.length; i++) {
      sink ^= ownerOfSlice.get(routes.sliceKeyOf(keys[i]!)!)!.length;
    }
  },
});

globalThis.addEventListener("unload", () => {
  if (sink === 0.5) throw new Error("unreachable: keeps the lookups observable");
});
