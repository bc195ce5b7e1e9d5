import assert from "node:assert/strict";
import { FencedError } from "../../core/errors.ts";
import type { Plan } from "../../plan/mod.ts";
import type { NamespaceCache } from "../../state/namespace_cache.ts";
import type { Fence, Store, Versioned } from "../../store/store.ts";
import { commitChange, HeardFromError } from "./fenced_commit.ts";

const fence = { namespace: "ns", revision: 5, claim: { term: 1 } } as unknown as Fence;
const cache = { state: { leader: { revision: 5 } } } as unknown as NamespaceCache;
const delta = { assign: { b: ["s1"] }, unassign: [], remove: [] };

function storeRefusingIf(changed: (unchanged: readonly Versioned[]) => boolean) {
  const seen: Versioned[][] = [];
  const store = {
    commitAssignment(_f: Fence, _seq: number, _d: unknown, unchanged: readonly Versioned[]) {
      seen.push([...unchanged]);
      return changed(unchanged)
        ? Promise.reject(new FencedError("ns", "assignment change 1 was refused"))
        : Promise.resolve(10);
    },
  } as unknown as Store;
  return { store, seen };
}

Deno.test("a commit requires the lost executors' records unchanged, with the plan's own", async () => {
  const { store, seen } = storeRefusingIf(() => false);
  const plan = { delta, reliedOn: [{ executorId: "x", heartbeatRevision: 3 }] } as unknown as Plan;
  const lost = [{ executorId: "a", heartbeatRevision: 7 }, {
    executorId: "x",
    heartbeatRevision: 3,
  }];
  assert.equal(await commitChange(store, cache, fence, { seq: 1, delta, plan, lost }), 10);
  assert.deepEqual(seen[0], [{ id: "x", revision: 3 }, { id: "a", revision: 7 }]);
});

Deno.test("a lost executor heard from before the commit refuses it: HeardFromError", async () => {
  // "a" heartbeated after the pass judged it lost: its record is no longer at revision 7.
  const { store } = storeRefusingIf((unchanged) => unchanged.some((e) => e.id === "a"));
  const plan = { delta, reliedOn: [] } as unknown as Plan;
  const lost = [{ executorId: "a", heartbeatRevision: 7 }];
  await assert.rejects(
    commitChange(store, cache, fence, { seq: 1, delta, plan, lost }),
    HeardFromError,
  );
});

Deno.test("at most 100 executors are required unchanged, the plan's first", async () => {
  const { store, seen } = storeRefusingIf(() => false);
  const reliedOn = Array.from(
    { length: 60 },
    (_, i) => ({ executorId: `r${i}`, heartbeatRevision: 1 }),
  );
  const lost = Array.from(
    { length: 80 },
    (_, i) => ({ executorId: `l${i}`, heartbeatRevision: 2 }),
  );
  const plan = { delta, reliedOn } as unknown as Plan;
  await commitChange(store, cache, fence, { seq: 1, delta, plan, lost });
  assert.equal(seen[0]!.length, 100);
  assert.equal(seen[0]!.filter((e) => e.id.startsWith("r")).length, 60);
});
