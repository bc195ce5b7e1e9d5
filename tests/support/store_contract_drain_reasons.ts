/**
 * The part of the `Store` contract about a shard drain's reason (a poison
 * shard's `quarantined`): kept with the drain in a load and in the change
 * feed, absent for a drain without one, gone with an undrain, and replaced by
 * a later drain without one. Registered by both adapters' tests beside
 * `storeContract`.
 *
 * @module
 */
import assert from "node:assert/strict";
import type { OpenStore } from "./store_contract.ts";
import { uniquePrefix } from "./etcd.ts";

/** Registers the drain-reason contract tests for the adapter `name`. */
export function drainReasonsContract(name: string, open: OpenStore): void {
  Deno.test(`${name} store: a shard drain keeps its reason in loads and in the change feed`, async () => {
    const { store, cleanup } = await open(uniquePrefix("drain reasons"));
    const abort = new AbortController();
    try {
      const start = (await store.loadNamespace("ns")).revision;
      const feed = store.watchNamespace("ns", start, abort.signal).getReader();
      await store.setDrained("ns", ["1"], true);
      await store.setDrained("ns", ["2", "3"], true, "quarantined");
      let snap = await store.loadNamespace("ns");
      assert.deepEqual([...snap.drained].sort(), ["1", "2", "3"]);
      assert.deepEqual([...snap.drainReasons ?? []].sort(), [
        ["2", "quarantined"],
        ["3", "quarantined"],
      ]);
      // An undrain clears it; an operator's drain over it has no reason.
      await store.setDrained("ns", ["2"], false);
      await store.setDrained("ns", ["3"], true);
      snap = await store.loadNamespace("ns");
      assert.deepEqual([...snap.drained].sort(), ["1", "3"]);
      assert.equal(snap.drainReasons?.size ?? 0, 0);
      const seen: unknown[] = [];
      while (seen.length < 5) {
        const { value } = await feed.read();
        for (const event of value?.events ?? []) if (event.type === "drained") seen.push(event);
      }
      assert.deepEqual(seen, [
        { type: "drained", shardKey: "1", drained: true },
        { type: "drained", shardKey: "2", drained: true, reason: "quarantined" },
        { type: "drained", shardKey: "3", drained: true, reason: "quarantined" },
        { type: "drained", shardKey: "2", drained: false },
        { type: "drained", shardKey: "3", drained: true },
      ]);
    } finally {
      abort.abort();
      await cleanup();
    }
  });
}
