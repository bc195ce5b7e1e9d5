/**
 * An exclusive key-range namespace (`type: range`, `ownership: exclusive`)
 * with SDK executors against a real etcd and service: while the planner
 * splits a hot range, isolates a hot key (one owner: exclusive ranges do not
 * replicate) and hands slices over to an executor that joins and away from
 * one that shuts down, no key is ever served by two executors at once. The
 * check samples every executor's running processors every few milliseconds
 * and asks each, through the SDK's own `ctx.contains(key)`, whether it holds
 * each of a set of keys.
 */
import assert from "node:assert/strict";
import { keyHash } from "../src/shared/key_hash.ts";
import { startEtcd } from "./support/etcd.ts";
import { eventually } from "./support/executors.ts";
import {
  type RunningSlices,
  startRangeInstance,
  startSliceExecutor,
} from "./support/range_namespace.ts";

const HOT = "tenant-hot";

Deno.test("exclusive range namespace: splits, a hot key and handovers, never a key served twice", async () => {
  await using etcd = await startEtcd();
  const instance = await startRangeInstance(etcd, "range exclusive", {
    exclusive: true,
    range: { churnBudget: 2 },
  });
  const address = instance.server.address;
  const running: RunningSlices = new Map();
  const start = (id: string) => startSliceExecutor(address, id, running);
  const executors = new Map(["a", "b"].map((id) => [id, start(id)]));
  const keys = [HOT, ...Array.from({ length: 60 }, (_, i) => `tenant-${i}`)];
  const holders = (key: string) =>
    [...running].filter(([, slices]) => [...slices.values()].some((ctx) => ctx.contains(key)))
      .map(([id]) => id);
  // The exclusive check, all along: at most one executor runs a slice containing each key.
  const overlaps: string[] = [];
  let samples = 0;
  let checking = true;
  const checker = (async () => {
    while (checking) {
      for (const key of keys) {
        const h = holders(key);
        if (h.length > 1) overlaps.push(`${key} on ${h.join(",")}`);
      }
      samples++;
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  })();
  // Load: the hot key takes most of it; every executor reports what it serves.
  let loading = true;
  const loader = (async () => {
    while (loading) {
      for (const key of [...Array.from({ length: 20 }, () => HOT), ...keys]) {
        for (const slices of running.values()) {
          for (const ctx of slices.values()) if (ctx.contains(key)) ctx.reportKeyLoad(key);
        }
      }
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  })();
  const point = keyHash(HOT);
  const hotSlice = () =>
    [...running].flatMap(([id, slices]) =>
      [...slices.values()].filter((ctx) =>
        ctx.slice?.start === point && ctx.slice.end === point + 1n
      )
        .map(() => id)
    );
  try {
    await eventually(() => keys.every((k) => holders(k).length === 1), 15_000, "every key served");
    await eventually(() => hotSlice().length > 0, 20_000, "the hot key has a slice of its own");
    assert.equal(hotSlice().length, 1, "one owner: exclusive ranges are not replicated");
    // An executor joins: slices are handed over to it (released by their owner first).
    executors.set("c", start("c"));
    await eventually(() => running.get("c")!.size > 0, 20_000, "c serves handed-over slices");
    // One shuts down: its slices go to the others.
    await executors.get("a")!.shutdown();
    executors.delete("a");
    await eventually(
      () => keys.every((k) => holders(k).length === 1 && !holders(k).includes("a")),
      20_000,
      "every key served again without a",
    );
  } finally {
    loading = false;
    checking = false;
    await Promise.all([loader, checker]);
    await Promise.all([...executors.values()].map((e) => e.shutdown()));
    await instance.stop();
  }
  assert.ok(samples > 100, `only ${samples} samples`);
  assert.deepEqual(overlaps.slice(0, 10), [], `${overlaps.length} overlapping samples`);
});
