/**
 * Micro-benchmark of the spectator SDK's in-process lookup: `ownerOf` on a
 * namespace of 100,000 shards over 100 executors, fed by a fake transport (no
 * network). One iteration is 100,000 lookups of random keys (every 10th key
 * is one the namespace does not have), so lookups per second =
 * 100,000 / iteration time. "keys held as strings" reuses the key strings
 * (V8 caches their hashes); "key string built per lookup" makes a new string
 * each time, as a request handler would.
 *
 * Run: `deno bench bench/spectator_bench.ts`
 *
 * @module
 */
import { snapshotSpectator } from "./lib/snapshot_spectator.ts";
import { seededRandom } from "../src/loadbalancer/_fixtures.ts";
import { LOOKUPS_PER_ITERATION } from "./lib/micro_sizes.ts";

const SHARDS = 100_000;
const EXECUTORS = 100;

const executors = Array.from({ length: EXECUTORS }, (_, e) => ({
  executorId: `executor-${e}`,
  metadata: { address: `10.0.${e >> 8}.${e & 255}:8080` },
  shards: [] as string[],
}));
for (let s = 0; s < SHARDS; s++) executors[s % EXECUTORS]!.shards.push(String(s));

const spectator = await snapshotSpectator({ executors });

const random = seededRandom(7);
const keys = Array.from(
  { length: LOOKUPS_PER_ITERATION },
  (_, i) => String(i % 10 === 9 ? SHARDS + i : Math.floor(random() * SHARDS)),
);
let found = 0;

const numbers = keys.map(Number);

Deno.bench({
  name: "ownerOf, keys held as strings",
  group: "ownerOf",
  fn() {
    for (let i = 0; i < keys.length; i++) {
      if (spectator.ownerOf(keys[i]!) !== undefined) found++;
    }
  },
});

Deno.bench({
  name: "ownerOf, key string built per lookup",
  group: "ownerOf",
  fn() {
    for (let i = 0; i < numbers.length; i++) {
      if (spectator.ownerOf(String(numbers[i]!)) !== undefined) found++;
    }
  },
});

globalThis.addEventListener("unload", () => {
  if (found < 0) throw new Error("unreachable: keeps the lookups observable");
  void spectator.close();
});
