/**
 * The part of the `Store` contract about executors hidden from the routing
 * view (`AssignmentDelta.hide`): carried by committed changes, kept through a
 * compaction, and valid only while the executor's heartbeat record is the one
 * judged. Registered by both adapters' tests beside `storeContract`.
 *
 * @module
 */
import assert from "node:assert/strict";
import type { OpenStore } from "./store_contract.ts";
import { claim } from "./store_contract.ts";
import { uniquePrefix } from "./etcd.ts";

/** Registers the hidden-executor contract tests for the adapter `name`. */
export function hiddenExecutorsContract(name: string, open: OpenStore): void {
  Deno.test(`${name} store: hidden executors survive loads and compactions until heard from`, async () => {
    const { store, cleanup } = await open(uniquePrefix("hidden executors"));
    try {
      const heartbeat = { status: "ACTIVE", timestampMs: 1 } as const;
      const rev = await store.writeExecutors("ns", [
        { executorId: "a", heartbeat },
        { executorId: "b", heartbeat },
      ]);
      const fence = await store.claimLeadership("ns", claim(1));
      // A hide judged on an older record of a is carried but does not hold.
      await store.commitAssignment(fence, 1, {
        assign: { a: ["0"] },
        unassign: [],
        remove: [],
        hide: { b: rev, a: rev - 1 },
      });
      const loaded = await store.loadNamespace("ns");
      assert.deepEqual([...loaded.hidden ?? []], [["b", rev]]);

      await store.compactAssignment(fence, 1, {
        owners: loaded.owners,
        revisions: loaded.assignedRevisions,
        times: loaded.assignmentTimes,
        hidden: new Map([["b", rev]]),
      });
      assert.deepEqual([...(await store.loadNamespace("ns")).hidden ?? []], [["b", rev]]);

      await store.writeExecutors("ns", [{ executorId: "b", heartbeat }]);
      assert.deepEqual([...(await store.loadNamespace("ns")).hidden ?? []], [], "heard from");
    } finally {
      await cleanup();
    }
  });
}
