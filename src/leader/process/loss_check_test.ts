import assert from "node:assert/strict";
import type { ExecutorView, NamespaceView } from "../../state/namespace_view.ts";
import { LossCheck, lostExecutors } from "./loss_check.ts";

/** A picture of executors (alive or not) and a store of their heartbeat revisions. */
function setup(executors: { id: string; revision: number; seenAtMs: number; alive: boolean }[]) {
  const views = () =>
    executors.map((e) =>
      ({ executorId: e.id, heartbeatRevision: e.revision, seenAtMs: e.seenAtMs }) as ExecutorView
    );
  const view = {
    executors: () => views().values(),
    isAlive: (e: ExecutorView) => executors.find((x) => x.id === e.executorId)!.alive,
  } as Pick<NamespaceView, "executors" | "isAlive">;
  const stored = new Map(executors.map((e) => [e.id, e.revision]));
  const reads: string[][] = [];
  const store = {
    heartbeatRevisions: (_ns: string, ids: readonly string[]) => {
      reads.push([...ids]);
      return Promise.resolve(new Map(ids.map((id) => [id, stored.get(id) ?? 0])));
    },
  };
  // As a pass uses it: on the executors the picture shows as lost.
  const loss = new LossCheck(store, "ns");
  const check = {
    behind: (v: typeof view, now: number) => loss.behind(lostExecutors(v, now)),
  };
  return { view, stored, reads, check };
}

Deno.test("a picture that shows no lost executor reads nothing", async () => {
  const { view, reads, check } = setup([{ id: "a", revision: 5, seenAtMs: 0, alive: true }]);
  assert.equal(await check.behind(view, 0), undefined);
  assert.deepEqual(reads, []);
});

Deno.test("a lost executor is confirmed once per heartbeat record", async () => {
  const { view, reads, check } = setup([
    { id: "a", revision: 5, seenAtMs: 0, alive: false },
    { id: "b", revision: 6, seenAtMs: 0, alive: true },
  ]);
  assert.equal(await check.behind(view, 0), undefined);
  assert.equal(await check.behind(view, 0), undefined);
  assert.deepEqual(reads, [["a"]]);
});

Deno.test("a newer stored heartbeat means the picture is behind; said first once per episode", async () => {
  const { view, stored, reads, check } = setup([
    { id: "a", revision: 5, seenAtMs: 10, alive: false },
    { id: "b", revision: 6, seenAtMs: 20, alive: false },
  ]);
  stored.set("b", 9);
  assert.deepEqual(await check.behind(view, 0), {
    executorId: "b",
    seen: 6,
    stored: 9,
    first: true,
  });
  assert.deepEqual(reads, [["b", "a"]], "the most recently seen first");
  assert.equal((await check.behind(view, 0))?.first, false);
  // "a" was confirmed on the first read; "b" is asked again until the picture catches up.
  assert.deepEqual(reads.at(-1), ["b"]);
  stored.set("b", 6);
  assert.equal(await check.behind(view, 0), undefined);
  stored.set("a", 7);
  assert.equal(await check.behind(view, 0), undefined, "a is confirmed at revision 5: not read");
});

Deno.test("at most 100 executors are read per check", async () => {
  const many = Array.from({ length: 250 }, (_, i) => ({
    id: `e${i}`,
    revision: i + 1,
    seenAtMs: i,
    alive: false,
  }));
  const { view, reads, check } = setup(many);
  assert.equal(await check.behind(view, 0), undefined);
  assert.equal(reads[0]!.length, 100);
  assert.equal(reads[0]![0], "e249");
});

Deno.test("executors gone from the picture are forgotten", async () => {
  const executors = [{ id: "a", revision: 5, seenAtMs: 0, alive: false }];
  const { view, reads, check } = setup(executors);
  await check.behind(view, 0);
  executors.length = 0;
  assert.equal(await check.behind(view, 0), undefined);
  executors.push({ id: "a", revision: 5, seenAtMs: 0, alive: false });
  await check.behind(view, 0);
  assert.equal(reads.length, 2, "read again after it left and came back");
});

Deno.test("lostExecutors keeps the revisions of its judgement when the picture moves on", () => {
  const live = { executorId: "x", heartbeatRevision: 7, seenAtMs: 1 };
  const view = {
    executors: () => [live as ExecutorView].values(),
    isAlive: () => false,
  } as Pick<NamespaceView, "executors" | "isAlive">;
  const [judged] = lostExecutors(view, 10);
  live.heartbeatRevision = 9; // the cache applies x's next heartbeat in place
  assert.equal(judged?.heartbeatRevision, 7, "the commit compares the record the pass judged");
});
