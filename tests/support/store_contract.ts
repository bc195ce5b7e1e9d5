import { reportsFrom } from "../../src/core/shared_reports.ts";
/**
 * The contract of the `Store` port, as a suite that every adapter runs:
 * `storeContract("etcd", open)` registers one `Deno.test` per behaviour, each
 * on a store opened under its own key prefix.
 *
 * @module
 */
import assert from "node:assert/strict";
import { FencedError } from "../../src/core/errors.ts";
import type { AssignmentDelta, HeartbeatRecord, LeaderClaim } from "../../src/core/types.ts";
import type { NamespaceEvent, NamespaceEventBatch, Store } from "../../src/store/store.ts";
import type { AssignmentImage, NamespaceSnapshot } from "../../src/store/store.ts";
import { contractTest } from "./store_contract_test_fn.ts";
import { definitionsContract } from "./store_contract_definitions.ts";

/** Opens a store under `prefix`; `cleanup` closes it and anything opened with it. */
export type OpenStore = (prefix: string) => Promise<{ store: Store; cleanup(): Promise<void> }>;

/** A claim for `term`. */
export function claim(term: number, instanceId = "i-1"): LeaderClaim {
  return { term, instanceId, sinceMs: term };
}

/** A delta that only assigns. */
export const assign = (
  assign: Record<string, string[]>,
  unassign: string[] = [],
  remove: string[] = [],
): AssignmentDelta => ({ assign, unassign, remove });

/** Assigns `shards` keys, `<prefix><i>`, round-robin over `executors` executors. */
export function bigDelta(shards: number, executors: number, prefix = "shard-"): AssignmentDelta {
  const out: Record<string, string[]> = {};
  for (let i = 0; i < shards; i++) (out[`executor-${i % executors}`] ??= []).push(`${prefix}${i}`);
  return assign(out);
}

/** The owners a delta produces from nothing. */
export function ownersOf(delta: AssignmentDelta): Map<string, string> {
  const owners = new Map<string, string>();
  for (const [executor, shards] of Object.entries(delta.assign)) {
    for (const shard of shards) owners.set(shard, executor);
  }
  return owners;
}

/** A snapshot's assignment as an image to compact. */
export function imageOf(snapshot: NamespaceSnapshot): AssignmentImage {
  return {
    owners: snapshot.owners,
    revisions: snapshot.assignedRevisions,
    times: snapshot.assignmentTimes,
  };
}

/** An image of bare owners, without revisions or times. */
export function ownersImage(owners: ReadonlyMap<string, string>): AssignmentImage {
  return { owners, revisions: new Map(), times: new Map() };
}

const HEARTBEAT = { status: "ACTIVE", timestampMs: 42 } as const;
type Reader = ReadableStreamDefaultReader<NamespaceEventBatch>;

/** Rejects when `promise` takes longer than `ms`. */
function within<T>(promise: Promise<T>, what: string, ms = 5_000): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`No ${what} within ${ms} ms`)), ms);
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

/** The next batch that holds events (a store may also send empty ones). */
async function nextBatch(reader: Reader): Promise<NamespaceEventBatch> {
  while (true) {
    const { done, value } = await within(reader.read(), "watch batch");
    if (done) throw new Error("The watch closed early");
    if (value.events.length > 0) return value;
  }
}

/** Asserts the next batch: at `revision` (unless undefined), with `events` in any order. */
async function expectBatch(reader: Reader, revision?: number, ...events: NamespaceEvent[]) {
  const got = await nextBatch(reader);
  const sorted = (list: readonly NamespaceEvent[]) => list.map((e) => JSON.stringify(e)).sort();
  assert.deepEqual(
    [revision === undefined ? undefined : got.revision, sorted(got.events)],
    [revision, sorted(events)],
  );
}

/** Sizes of a snapshot's collections, and its seq and leader. */
const sizes = (
  s: NamespaceSnapshot,
) => [s.executors.size, s.owners.size, s.drained.size, s.requested.size, s.assignmentSeq, s.leader];

/** Registers the `Store` contract tests for the adapter `name`. */
export function storeContract(name: string, open: OpenStore): void {
  definitionsContract(name, open);
  const test = contractTest(name, open);

  test("answers a ping", async (store) => {
    await store.ping();
  });

  test("loads an empty namespace", async (store) => {
    const snap = await store.loadNamespace("ns");
    assert.ok(snap.revision >= 0);
    assert.deepEqual(sizes(snap), [0, 0, 0, 0, 0, undefined]);
  });

  test("writes executors and loads them with the heartbeat revision", async (store) => {
    const [metadata, draining] = [{ zone: "z1" }, { status: "DRAINING", timestampMs: 7 }] as const;
    const reports = reportsFrom({
      s1: { status: "READY", load: 1.5 },
      s2: { status: "DONE", load: 0 },
    });
    const stored = (executorId: string, heartbeat: HeartbeatRecord, rev: number, full = false) => ({
      executorId,
      heartbeat,
      heartbeatRevision: rev,
      metadata: full ? metadata : {},
      reports: full ? reports : new Map(),
    });
    // A status this server does not know is kept with the number the executor sent.
    const unknown = { status: "UNKNOWN", statusNumber: 7, timestampMs: 8 } as const;
    const rev1 = await store.writeExecutors("ns", [
      { executorId: "e1", heartbeat: HEARTBEAT, metadata, reports },
      { executorId: "e2", heartbeat: draining },
      { executorId: "e3", heartbeat: unknown },
    ]);
    const snap = await store.loadNamespace("ns");
    assert.ok(snap.revision >= rev1);
    assert.deepEqual(
      snap.executors,
      new Map([
        ["e1", stored("e1", HEARTBEAT, rev1, true)],
        ["e2", stored("e2", draining, rev1)],
        ["e3", stored("e3", unknown, rev1)],
      ]),
    );
    await store.writeExecutors("ns", [{ executorId: "e3", heartbeat: HEARTBEAT }]);
    // A heartbeat alone moves the heartbeat revision and keeps metadata and reports.
    const rev2 = await store.writeExecutors("ns", [{ executorId: "e1", heartbeat: HEARTBEAT }]);
    assert.ok(rev2 > rev1);
    const after = (await store.loadNamespace("ns")).executors;
    assert.deepEqual(after.get("e1"), stored("e1", HEARTBEAT, rev2, true));
    assert.deepEqual(after.get("e2"), stored("e2", draining, rev1));
    assert.deepEqual(after.get("e3")?.heartbeat, HEARTBEAT, "a known status drops the number");
  });

  test("records shard requests and drained shards", async (store) => {
    const rev = await store.requestShards("ns", ["x", "y"]);
    await store.setDrained("ns", ["0", "1"], true);
    await store.setDrained("ns", ["0"], false);
    const snap = await store.loadNamespace("ns");
    assert.deepEqual([...snap.requested].sort(), [["x", rev], ["y", rev]]);
    assert.deepEqual([...snap.drained], ["1"]);
  });

  test("claimLeadership refuses a term that is not newer", async (store) => {
    const first = await store.claimLeadership("ns", claim(5));
    assert.deepEqual([first.namespace, first.claim], ["ns", claim(5)]);
    assert.deepEqual((await store.loadNamespace("ns")).leader, {
      claim: claim(5),
      revision: first.revision,
    });
    await assert.rejects(store.claimLeadership("ns", claim(5, "i-2")), FencedError);
    await assert.rejects(store.claimLeadership("ns", claim(4, "i-2")), FencedError);
    const next = await store.claimLeadership("ns", claim(6, "i-2"));
    assert.ok(next.revision > first.revision);
    assert.deepEqual((await store.loadNamespace("ns")).leader?.claim, claim(6, "i-2"));
  });

  test("a claim returns the one it replaced; endLeadership marks a handover, fenced", async (store) => {
    const first = await store.claimLeadership("ns", claim(1));
    assert.equal(first.previous, undefined);
    const end = { atMs: 1_700_000_000_000, reason: "leader period over", routine: true };
    await store.endLeadership(first, end);
    assert.deepEqual((await store.loadNamespace("ns")).leader?.claim, { ...claim(1), ended: end });
    // The mark moved the claim's revision: the old fence writes nothing any more.
    await assert.rejects(store.commitAssignment(first, 1, assign({ e1: ["a"] })), FencedError);
    const second = await store.claimLeadership("ns", claim(2, "i-2"));
    assert.deepEqual(second.previous, { ...claim(1), ended: end });
    await assert.rejects(store.endLeadership(first, end), FencedError);
    const third = await store.claimLeadership("ns", claim(3));
    assert.deepEqual(third.previous, claim(2, "i-2"), "never marked: no handover");
  });

  test("commitAssignment follows the head and applies deltas in order", async (store) => {
    const fence = await store.claimLeadership("ns", claim(1));
    await assert.rejects(store.commitAssignment(fence, 2, assign({ e1: ["a"] })), FencedError);
    const rev1 = await store.commitAssignment(fence, 1, assign({ e1: ["a", "b", "c", "x"] }));
    await assert.rejects(store.commitAssignment(fence, 1, assign({ e2: ["a"] })), FencedError);
    await assert.rejects(store.commitAssignment(fence, 3, assign({ e2: ["a"] })), FencedError);
    const rev2 = await store.commitAssignment(fence, 2, assign({ e2: ["a", "d"] }, ["b"], ["c"]));
    assert.ok(rev2 > rev1);
    const snap = await store.loadNamespace("ns");
    assert.equal(snap.assignmentSeq, 2);
    assert.deepEqual(snap.owners, new Map([["x", "e1"], ["a", "e2"], ["d", "e2"]]));
    assert.deepEqual(snap.assignedRevisions, new Map([["x", rev1], ["a", rev2], ["d", rev2]]));
  });

  test("a write with an old fence fails and changes nothing", async (store) => {
    const old = await store.claimLeadership("ns", claim(1));
    await store.commitAssignment(old, 1, assign({ e1: ["a"] }));
    await store.requestShards("ns", ["r"]);
    const rev = await store.writeExecutors("ns", [{ executorId: "e1", heartbeat: HEARTBEAT }]);
    const before = await store.loadNamespace("ns");
    const fence = await store.claimLeadership("ns", claim(2, "i-2"));
    await assert.rejects(store.commitAssignment(old, 2, assign({ e2: ["a"] })), FencedError);
    await assert.rejects(store.commitAssignment(old, 2, bigDelta(60_000, 10)), FencedError);
    await assert.rejects(store.compactAssignment(old, 1, imageOf(before)), FencedError);
    const fenced = (error: unknown) => {
      if (!(error instanceof FencedError)) throw error;
    };
    await store.removeExecutors(old, [{ id: "e1", revision: rev }]).catch(fenced);
    const requested = before.requested.get("r") ?? 0;
    await store.clearRequests(old, [{ id: "r", revision: requested }]).catch(fenced);
    const after = await store.loadNamespace("ns");
    assert.deepEqual({ ...after, revision: 0, leader: undefined }, {
      ...before,
      revision: 0,
      leader: undefined,
    });
    await store.commitAssignment(fence, 2, assign({ e2: ["a"] }));
    assert.equal((await store.loadNamespace("ns")).owners.get("a"), "e2");
  });

  test("a commit does not grow with the delta: 10,000 shards on 1,000 executors", async (store) => {
    const executors = Array.from({ length: 1_000 }, (_, i) => ({
      executorId: `executor-${i}`,
      heartbeat: HEARTBEAT,
      metadata: { i: String(i) },
    }));
    await store.writeExecutors("ns", executors);
    const fence = await store.claimLeadership("ns", claim(1));
    const delta = bigDelta(10_000, 1_000);
    await store.commitAssignment(fence, 1, delta);
    const snap = await store.loadNamespace("ns");
    assert.equal(snap.executors.size, 1_000);
    assert.deepEqual(snap.owners, ownersOf(delta));
  });

  test("a change larger than a request commits in parts and compacts", async (store) => {
    const fence = await store.claimLeadership("ns", claim(1));
    // About 9 MB of JSON: 200,000 shard keys of 40 characters.
    const delta = bigDelta(200_000, 50, `tenant-${"x".repeat(26)}-`);
    await store.commitAssignment(fence, 1, delta);
    await store.commitAssignment(fence, 2, assign({ "executor-0": ["extra"] }));
    const owners = ownersOf(delta).set("extra", "executor-0");
    const loaded = await store.loadNamespace("ns");
    assert.equal(loaded.assignmentSeq, 2);
    assert.deepEqual(loaded.owners, owners);
    await store.compactAssignment(fence, 2, imageOf(loaded));
    const compacted = await store.loadNamespace("ns");
    assert.equal(compacted.assignmentSeq, 2);
    assert.deepEqual(compacted.owners, owners);
  });

  test("compactAssignment keeps the owners and refuses a stale seq", async (store) => {
    const fence = await store.claimLeadership("ns", claim(1));
    await store.commitAssignment(fence, 1, assign({ e1: ["a", "b"] }));
    await store.commitAssignment(fence, 2, assign({ e2: ["b", "c"] }));
    const before = await store.loadNamespace("ns");
    await store.compactAssignment(fence, 2, imageOf(before));
    const after = await store.loadNamespace("ns");
    assert.deepEqual([after.owners, after.assignmentSeq], [before.owners, 2]);
    await store.commitAssignment(fence, 3, assign({ e3: ["a"] }, ["c"]));
    const expected = new Map([["a", "e3"], ["b", "e2"]]);
    // The head moved on: a compaction at 2 (again) or at 1 is refused and changes nothing.
    await assert.rejects(
      store.compactAssignment(fence, 2, ownersImage(new Map([["z", "e9"]]))),
      FencedError,
    );
    await assert.rejects(store.compactAssignment(fence, 1, imageOf(after)), FencedError);
    const last = await store.loadNamespace("ns");
    assert.deepEqual([last.owners, last.assignmentSeq], [expected, 3]);
    await store.compactAssignment(fence, 3, ownersImage(expected));
    await store.commitAssignment(fence, 4, assign({ e1: ["d"] }));
    expected.set("d", "e1");
    assert.deepEqual((await store.loadNamespace("ns")).owners, expected);
  });

  test("heartbeatRevisions reads each record's revision from the store, 0 when absent", async (store) => {
    const rev1 = await store.writeExecutors("ns", [
      { executorId: "e1", heartbeat: HEARTBEAT },
      { executorId: "e2", heartbeat: HEARTBEAT },
    ]);
    const rev2 = await store.writeExecutors("ns", [{ executorId: "e2", heartbeat: HEARTBEAT }]);
    const many = Array.from({ length: 130 }, (_, i) => `n${i}`); // more than one transaction
    const got = await store.heartbeatRevisions("ns", ["e1", "e2", "gone", ...many]);
    assert.deepEqual([got.get("e1"), got.get("e2"), got.get("gone")], [rev1, rev2, 0]);
    assert.equal(got.size, 133);
    // What a load (and so a feed) shows is the same revision.
    const snap = await store.loadNamespace("ns");
    assert.equal(snap.executors.get("e2")?.heartbeatRevision, got.get("e2"));
  });

  test("removeExecutors and clearRequests only delete what is unchanged", async (store) => {
    const fence = await store.claimLeadership("ns", claim(1));
    const rev1 = await store.writeExecutors("ns", [
      { executorId: "e1", heartbeat: HEARTBEAT, metadata: { a: "1" } },
      {
        executorId: "e2",
        heartbeat: HEARTBEAT,
        reports: reportsFrom({ s: { status: "READY", load: 1 } }),
      },
    ]);
    const rev2 = await store.writeExecutors("ns", [{ executorId: "e2", heartbeat: HEARTBEAT }]);
    const req1 = await store.requestShards("ns", ["x", "y", "z"]);
    const req2 = await store.requestShards("ns", ["y"]);
    await store.removeExecutors(fence, ["e1", "e2"].map((id) => ({ id, revision: rev1 })));
    await store.clearRequests(fence, ["x", "y", "z"].map((id) => ({ id, revision: req1 })));
    const snap = await store.loadNamespace("ns");
    assert.deepEqual([...snap.executors.keys()], ["e2"]);
    assert.equal(snap.executors.get("e2")?.heartbeatRevision, rev2);
    assert.deepEqual([...snap.requested], [["y", req2]]);
  });

  test("resetNamespace deletes one namespace only", async (store) => {
    for (const ns of ["a", "ab", "b"]) {
      await store.writeExecutors(ns, [{ executorId: "e1", heartbeat: HEARTBEAT, metadata: {} }]);
      await store.setDrained(ns, ["d"], true);
      await store.requestShards(ns, ["r"]);
      const fence = await store.claimLeadership(ns, claim(1));
      await store.commitAssignment(fence, 1, assign({ e1: ["s"] }));
    }
    const before = await Promise.all(["ab", "b"].map((ns) => store.loadNamespace(ns)));
    assert.ok(await store.resetNamespace("a") > 0);
    assert.equal(await store.resetNamespace("a"), 0);
    assert.deepEqual(sizes(await store.loadNamespace("a")), [0, 0, 0, 0, 0, undefined]);
    const after = await Promise.all(["ab", "b"].map((ns) => store.loadNamespace(ns)));
    assert.deepEqual(
      after.map((s) => ({ ...s, revision: 0 })),
      before.map((s) => ({ ...s, revision: 0 })),
    );
    // A reset namespace starts over at change 1 under a first claim.
    const fence = await store.claimLeadership("a", claim(1));
    await store.commitAssignment(fence, 1, assign({ e9: ["s"] }));
  });

  test("watchNamespace streams each revision's decoded events until aborted", async (store) => {
    const abort = new AbortController();
    const start = (await store.loadNamespace("ns")).revision;
    const feed = store.watchNamespace("ns", start, abort.signal).getReader();
    const expect = (revision: number | undefined, ...events: NamespaceEvent[]) =>
      expectBatch(feed, revision, ...events);
    const drained = (shardKey: string, drained: boolean) =>
      ({ type: "drained", shardKey, drained }) as const;
    const metadata = { zone: "z" } as const;
    const reports = reportsFrom({ s: { status: "READY", load: 2 } });
    try {
      const rev1 = await store.writeExecutors("ns", [
        { executorId: "e1", heartbeat: HEARTBEAT, metadata, reports },
      ]);
      await expect(
        rev1,
        { type: "metadata", executorId: "e1", metadata },
        { type: "reports", executorId: "e1", reports },
        { type: "heartbeat", executorId: "e1", record: HEARTBEAT },
      );
      const fence = await store.claimLeadership("ns", claim(3));
      await expect(fence.revision, { type: "leader", claim: claim(3) });
      const small = assign({ e1: ["a"] });
      const rev2 = await store.commitAssignment(fence, 1, small);
      await expect(rev2, { type: "assignment", seq: 1, delta: small });
      // About 2.4 MB: staged in parts before the commit.
      const large = bigDelta(60_000, 7, `tenant-${"y".repeat(26)}-`);
      const rev = await store.commitAssignment(fence, 2, large);
      await expect(rev, { type: "assignment", seq: 2, delta: large });
      // A watch that starts after the parts were staged still decodes the change.
      const late = new AbortController();
      const replay = store.watchNamespace("ns", rev - 1, late.signal).getReader();
      await expectBatch(replay, rev, { type: "assignment", seq: 2, delta: large });
      late.abort();
      assert.equal((await within(replay.read(), "close")).done, true);

      const rev3 = await store.setDrained("ns", ["d1", "d2"], true);
      await expect(rev3, drained("d1", true), drained("d2", true));
      await expect(await store.setDrained("ns", ["d1"], false), drained("d1", false));
      const rev4 = await store.requestShards("ns", ["r"]);
      await expect(rev4, { type: "requested", shardKey: "r", requested: true });
      await store.clearRequests(fence, [{ id: "r", revision: rev4 }]);
      await expect(undefined, { type: "requested", shardKey: "r", requested: false });
      await store.removeExecutors(fence, [{ id: "e1", revision: rev1 }]);
      await expect(undefined, { type: "executor_removed", executorId: "e1" });
      await store.resetNamespace("ns");
      let reset = await nextBatch(feed);
      while (!reset.events.some((e) => e.type === "resync")) reset = await nextBatch(feed);
      abort.abort();
      while (!(await within(feed.read(), "close")).done) { /* drain what is left */ }
    } finally {
      abort.abort();
      feed.releaseLock();
    }
    // A feed whose signal is already aborted closes at once.
    const closed = store.watchNamespace("ns", start, abort.signal).getReader();
    assert.equal((await within(closed.read(), "close")).done, true);
  });

  test("compaction keeps each shard's revision (its fencing token) and commit time", async (store) => {
    const fence = await store.claimLeadership("ns", claim(1));
    const rev1 = await store.commitAssignment(fence, 1, {
      ...assign({ e1: ["a", "b"] }),
      atMs: 111,
    });
    const rev2 = await store.commitAssignment(fence, 2, { ...assign({ e2: ["b"] }), atMs: 222 });
    const before = await store.loadNamespace("ns");
    assert.deepEqual(before.assignedRevisions, new Map([["a", rev1], ["b", rev2]]));
    assert.deepEqual(before.assignmentTimes, new Map([[rev1, 111], [rev2, 222]]));
    await store.compactAssignment(fence, 2, imageOf(before));
    const after = await store.loadNamespace("ns");
    assert.deepEqual(
      [after.owners, after.assignedRevisions, after.assignmentTimes],
      [before.owners, before.assignedRevisions, before.assignmentTimes],
    );
  });

  test("a released shard keeps its owner and release revision until it moves", async (store) => {
    const fence = await store.claimLeadership("ns", claim(1));
    const rev1 = await store.commitAssignment(fence, 1, assign({ e1: ["a", "b"] }));
    const rev2 = await store.commitAssignment(fence, 2, { ...assign({}), release: ["a", "zz"] });
    const released = await store.loadNamespace("ns");
    assert.deepEqual(released.owners, new Map([["a", "e1"], ["b", "e1"]]));
    assert.deepEqual(released.assignedRevisions, new Map([["a", rev1], ["b", rev1]]));
    assert.deepEqual(released.releasing, new Map([["a", rev2]]));
    await store.compactAssignment(fence, 2, {
      ...imageOf(released),
      releasing: released.releasing!,
    });
    assert.deepEqual((await store.loadNamespace("ns")).releasing, new Map([["a", rev2]]));
    await store.commitAssignment(fence, 3, assign({ e2: ["a"] }));
    const moved = await store.loadNamespace("ns");
    assert.deepEqual([moved.owners.get("a"), moved.releasing], ["e2", new Map()]);
  });

  test("owner sets of replicated shards survive the log, the feed and compaction", async (store) => {
    const fence = await store.claimLeadership("ns", claim(1));
    const abort = new AbortController();
    const start = (await store.loadNamespace("ns")).revision;
    const feed = store.watchNamespace("ns", start, abort.signal).getReader();
    const sets = (snap: NamespaceSnapshot) => snap.ownerSets ?? new Map();
    try {
      const first: AssignmentDelta = {
        assign: { e1: ["a", "b"] },
        unassign: [],
        remove: [],
        sets: { a: ["e1", "e2", "e3"] },
      };
      const rev1 = await store.commitAssignment(fence, 1, first);
      await expectBatch(feed, rev1, { type: "assignment", seq: 1, delta: first });
      const one = await store.loadNamespace("ns");
      assert.deepEqual(one.owners, new Map([["a", "e1"], ["b", "e1"]]));
      assert.deepEqual(sets(one), new Map([["a", ["e1", "e2", "e3"]]]));
      const rev2 = await store.commitAssignment(fence, 2, {
        ...assign({ e2: ["a"] }),
        sets: { a: ["e2", "e3", "e4"] },
      });
      const two = await store.loadNamespace("ns");
      assert.deepEqual(two.owners.get("a"), "e2");
      assert.deepEqual(sets(two), new Map([["a", ["e2", "e3", "e4"]]]));
      assert.equal(two.assignedRevisions.get("a"), rev2);
      await store.compactAssignment(fence, 2, { ...imageOf(two), ownerSets: sets(two) });
      const compacted = await store.loadNamespace("ns");
      assert.deepEqual(
        [compacted.owners, sets(compacted), compacted.assignedRevisions],
        [two.owners, sets(two), two.assignedRevisions],
      );
      // Assigned without a set: back to one owner.
      await store.commitAssignment(fence, 3, assign({ e5: ["a"] }));
      const single = await store.loadNamespace("ns");
      assert.deepEqual([single.owners.get("a"), sets(single).size], ["e5", 0]);
      await store.commitAssignment(fence, 4, {
        ...assign({ e6: ["c"] }),
        sets: { c: ["e6", "e7"] },
      });
      await store.commitAssignment(fence, 5, assign({}, ["c"]));
      assert.equal(sets(await store.loadNamespace("ns")).size, 0, "unassigned: no set");
    } finally {
      abort.abort();
      feed.releaseLock();
    }
  });

  test("commitAssignment refuses to move shards off an executor heard from since", async (store) => {
    const fence = await store.claimLeadership("ns", claim(1));
    const heard = await store.writeExecutors("ns", [{ executorId: "e1", heartbeat: HEARTBEAT }]);
    await store.commitAssignment(fence, 1, assign({ e1: ["a"] }), [{ id: "e1", revision: heard }]);
    await store.writeExecutors("ns", [{ executorId: "e1", heartbeat: HEARTBEAT }]);
    await assert.rejects(
      store.commitAssignment(fence, 2, assign({ e2: ["a"] }), [{ id: "e1", revision: heard }]),
      FencedError,
    );
    assert.equal((await store.loadNamespace("ns")).owners.get("a"), "e1");
  });

  test("executor drains are stored, loaded, streamed and reset", async (store) => {
    const byId = { id: "id:e/1", executorId: "e/1", reason: "bad disk", createdAtMs: 5 };
    const bySelector = {
      id: "selector:host=w7,zone=b",
      selector: { host: "w7", zone: "b" },
      reason: "",
      createdAtMs: 6,
    };
    const abort = new AbortController();
    const start = (await store.loadNamespace("ns")).revision;
    const feed = store.watchNamespace("ns", start, abort.signal).getReader();
    try {
      const rev1 = await store.putExecutorDrain("ns", byId);
      await expectBatch(feed, rev1, { type: "executor_drain", id: byId.id, drain: byId });
      await store.putExecutorDrain("ns", bySelector);
      await expectBatch(feed, undefined, {
        type: "executor_drain",
        id: bySelector.id,
        drain: bySelector,
      });
      const loaded = await store.loadNamespace("ns");
      assert.deepEqual(
        loaded.executorDrains,
        new Map<string, unknown>([[byId.id, byId], [bySelector.id, bySelector]]),
      );
      const rev3 = await store.deleteExecutorDrain("ns", byId.id);
      await expectBatch(feed, rev3, { type: "executor_drain", id: byId.id });
      assert.deepEqual([...(await store.loadNamespace("ns")).executorDrains.keys()], [
        bySelector.id,
      ]);
      await store.resetNamespace("ns");
      assert.equal((await store.loadNamespace("ns")).executorDrains.size, 0);
    } finally {
      abort.abort();
      feed.releaseLock();
    }
  });
}
