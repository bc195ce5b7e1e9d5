/**
 * The part of the `Store` contract about trimming a namespace's history: by
 * age, by count, and by age alone (`keep` of `Infinity`), returning how many
 * events went. Registered by both adapters' tests beside `storeContract`.
 *
 * @module
 */
import assert from "node:assert/strict";
import type { HistoryEvent } from "../../src/core/history_event.ts";
import type { OpenStore } from "./store_contract.ts";
import { uniquePrefix } from "./etcd.ts";

/** An event at `atMs` with an id that sorts by time, as the history log makes them. */
function event(atMs: number, n: number): HistoryEvent {
  return {
    id: `${String(atMs).padStart(15, "0")}-i1-${n}`,
    type: "executor_joined",
    atMs,
    executorId: `e${n}`,
    text: `executor e${n} joined`,
  };
}

/** Registers the history-trim contract tests for the adapter `name`. */
export function historyTrimContract(name: string, open: OpenStore): void {
  Deno.test(`${name} store: history is trimmed by age, by count, and by age alone`, async () => {
    const { store, cleanup } = await open(uniquePrefix("history trim"));
    try {
      const ids = async () => (await store.readHistory("ns", { limit: 100 })).map((e) => e.atMs);
      await store.appendHistory("ns", [1, 2, 3, 4, 5, 6].map((t) => event(t * 1_000, t)));
      await store.appendHistory("other", [event(1_000, 1)]);
      // By age alone: everything before 2.5 s, however many are left.
      assert.equal(await store.trimHistory("ns", 2_500, Infinity), 2);
      assert.deepEqual(await ids(), [3_000, 4_000, 5_000, 6_000]);
      // Nothing past the retention: nothing goes.
      assert.equal(await store.trimHistory("ns", 2_500, Infinity), 0);
      // By count: the newest 2 stay, whatever their age.
      assert.equal(await store.trimHistory("ns", 0, 2), 2);
      assert.deepEqual(await ids(), [5_000, 6_000]);
      // Both at once.
      await store.appendHistory("ns", [7, 8].map((t) => event(t * 1_000, t)));
      assert.equal(await store.trimHistory("ns", 5_500, 2), 2);
      assert.deepEqual(await ids(), [7_000, 8_000]);
      // Another namespace is untouched; an emptied one is no longer listed.
      assert.equal(await store.trimHistory("ns", 10_000, Infinity), 2);
      assert.deepEqual(await store.historyNamespaces(), ["other"]);
    } finally {
      await cleanup();
    }
  });
}
