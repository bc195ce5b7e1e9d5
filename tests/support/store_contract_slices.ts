/**
 * The part of the `Store` contract about a key-range namespace's slice map
 * (`AssignmentDelta.slices`): committed with an assignment change, kept by
 * later changes that do not carry one, replaced by one that does, carried in
 * the change feed, and kept by a compaction. Registered by both adapters'
 * tests beside `storeContract`.
 *
 * @module
 */
import assert from "node:assert/strict";
import { SliceMap } from "../../src/core/slices.ts";
import { sliceMapFromText, sliceMapText } from "../../src/core/slice_map_codec.ts";
import type { OpenStore } from "./store_contract.ts";
import { assign, claim, ownersImage } from "./store_contract.ts";
import { uniquePrefix } from "./etcd.ts";

/** Registers the slice-map contract tests for the adapter `name`. */
export function slicesContract(name: string, open: OpenStore): void {
  Deno.test(`${name} store: a slice map is committed, kept, replaced, fed and compacted`, async () => {
    const { store, cleanup } = await open(uniquePrefix("slices"));
    const abort = new AbortController();
    try {
      const first = SliceMap.initial(4);
      const second = first.split(2, (1n << 63n) + 7n);
      const fence = await store.claimLeadership("ns", claim(1));
      const start = (await store.loadNamespace("ns")).revision;
      assert.equal((await store.loadNamespace("ns")).slices, undefined, "none before");
      const feed = store.watchNamespace("ns", start, abort.signal).getReader();

      await store.commitAssignment(fence, 1, {
        ...assign({ e1: ["0", "1"], e2: ["2", "3"] }),
        slices: sliceMapText(first),
      });
      await store.commitAssignment(fence, 2, assign({ e2: ["1"] }));
      let snap = await store.loadNamespace("ns");
      assert.deepEqual(
        sliceMapFromText(snap.slices!).slices,
        first.slices,
        "kept by a change without one",
      );

      await store.commitAssignment(fence, 3, {
        ...assign({ e2: [String(second.nextId - 1)] }),
        slices: sliceMapText(second),
      });
      snap = await store.loadNamespace("ns");
      assert.deepEqual(sliceMapFromText(snap.slices!).slices, second.slices, "replaced");

      const fed: (string | undefined)[] = [];
      while (fed.length < 3) {
        const { value } = await feed.read();
        for (const event of value?.events ?? []) {
          if (event.type === "assignment") fed.push(event.delta.slices);
        }
      }
      assert.deepEqual(fed, [sliceMapText(first), undefined, sliceMapText(second)]);

      await store.compactAssignment(fence, 3, {
        ...ownersImage(snap.owners),
        slices: snap.slices!,
      });
      snap = await store.loadNamespace("ns");
      assert.deepEqual(
        sliceMapFromText(snap.slices!).slices,
        second.slices,
        "kept by a compaction",
      );
      await store.commitAssignment(fence, 4, assign({ e1: ["0"] }));
      snap = await store.loadNamespace("ns");
      assert.deepEqual(
        sliceMapFromText(snap.slices!).slices,
        second.slices,
        "and by the log after it",
      );
    } finally {
      abort.abort();
      await cleanup();
    }
  });
}
