/**
 * Micro-benchmark of key-range lookups: hash a key (XXH64 of its UTF-8
 * bytes) and find its slice by binary search, over 3,200 slices (100
 * executors × 32), on the server's `SliceMap`, on the spectator's
 * `KeyRoutes` followed by a lookup of the slice's owner by its key, and in
 * the spectator itself (`ownerOf`, fed by a fake transport, which keeps each
 * slice's owner in line order). One iteration is 100,000 lookups, so lookups
 * per second = 100,000 / iteration time. The hash alone is timed three ways:
 * as lookups hash (WebAssembly for ASCII keys), in JavaScript on 32-bit
 * halves (the fallback), and written on `bigint`.
 *
 * The `Zipf` cases route a stream drawn from a Zipf law over 1,000,000 keys
 * (s = 0.8 and 1.1, the range suite's load model), as a spectator in front
 * of that workload sees it: the hot keys come back and stay in the CPU's
 * caches, where 100,000 different keys each looked up once do not.
 *
 * Run: `deno bench --allow-all bench/ranges_bench.ts`
 *
 * @module
 */
import { hashKeyInto, hashKeyIntoPortable } from "../src/shared/key_hash.ts";
import { xxh64BigInt } from "../src/shared/_xxh64_bigint.ts";
import { SliceMap } from "../src/core/slices.ts";
import { KeyRoutes } from "../src/client/spectator/key_routes.ts";
import { encodeSliceMap } from "../src/core/slice_map_codec.ts";
import { snapshotSpectator } from "./lib/snapshot_spectator.ts";
import { LOOKUPS_PER_ITERATION } from "./lib/micro_sizes.ts";
import { zipfRequests } from "./lib/zipf_requests.ts";

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
  name: "hash only (hashKeyInto: WebAssembly for ASCII keys)",
  group: "hash",
  baseline: true,
  fn() {
    for (let i = 0; i < keys.length; i++) hashKeyInto(keys[i]!, out), sink ^= out[1]!;
  },
});

Deno.bench({
  name: "hash only, JavaScript on 32-bit halves (hashKeyIntoPortable)",
  group: "hash",
  fn() {
    for (let i = 0; i < keys.length; i++) hashKeyIntoPortable(keys[i]!, out), sink ^= out[1]!;
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

// The spectator itself, fed the slice map and its owners by a fake transport (no network).
const executors = Array.from({ length: EXECUTORS }, (_, e) => ({
  executorId: `executor-${e}`,
  metadata: { address: `10.0.0.${e}:8080` },
  shards: [] as string[],
}));
map.slices.forEach((slice, i) => executors[i % EXECUTORS]!.shards.push(String(slice.id)));
const spectator = await snapshotSpectator({ executors, sliceMap: encodeSliceMap(map) });

Deno.bench({
  name: "spectator ownerOf (hash, search, the slice's owner), keys held as strings",
  group: "spectator",
  baseline: true,
  fn() {
    for (let i = 0; i < keys.length; i++) sink ^= spectator.ownerOf(keys[i]!)!.executorId.length;
  },
});

for (const s of [0.8, 1.1]) {
  // Requests as the range suite's load model draws them: key N with weight 1 / (N + 1)^s.
  const drawn = zipfRequests({ keys: 1_000_000, s, count: LOOKUPS_PER_ITERATION });
  const stream = Array.from(drawn, (n) => `key-${n}`);
  Deno.bench({
    name: `spectator ownerOf, Zipf s = ${s} requests over 1M keys, keys held as strings`,
    group: "spectator",
    fn() {
      for (let i = 0; i < stream.length; i++) {
        sink ^= spectator.ownerOf(stream[i]!)!.executorId.length;
      }
    },
  });
  Deno.bench({
    name: `spectator ownerOf, Zipf s = ${s} requests over 1M keys, key string built per lookup`,
    group: "spectator",
    fn() {
      for (let i = 0; i < drawn.length; i++) {
        sink ^= spectator.ownerOf(`key-${drawn[i]!}`)!.executorId.length;
      }
    },
  });
}

globalThis.addEventListener("unload", () => {
  void spectator.close();
  if (sink === 0.5) throw new Error("unreachable: keeps the lookups observable");
});
