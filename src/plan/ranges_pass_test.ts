import assert from "node:assert/strict";
import { RANGE_DEFAULTS, type RangeSettings } from "../config/range_settings.ts";
import { keyHash } from "../shared/key_hash.ts";
import type { ShardReport } from "../core/types.ts";
import { NamespaceState } from "../state/namespace_state.ts";
import { planInput } from "./plan_input.ts";
import type { Plan } from "./plan.ts";
import { planRangesPass, type RangesPolicy } from "./ranges_pass.ts";
import type { SliceEdit } from "./slice_edits.ts";

const SETTINGS: RangeSettings = {
  ...RANGE_DEFAULTS,
  initialSlices: 8,
  slicesPerExecutor: { target: 4, min: 1, max: 16 },
};

/** A namespace's state driven by the passes' own changes, as the leader's cache would be. */
class Namespace {
  readonly state = new NamespaceState("keys", { heartbeatTtlMs: 2_000 });
  revision = 1;
  seq = 0;
  now = 0;

  constructor(readonly policy: RangesPolicy = policyOf(SETTINGS)) {}

  beat(
    id: string,
    reports: Record<string, ShardReport> = {},
    metadata: Record<string, string> = {},
  ) {
    this.state.apply({
      revision: ++this.revision,
      events: [
        { type: "heartbeat", executorId: id, record: { status: "ACTIVE", timestampMs: this.now } },
        { type: "metadata", executorId: id, metadata },
        { type: "reports", executorId: id, reports: new Map(Object.entries(reports)) },
      ],
    }, this.now);
  }

  /**
   * A heartbeat of `id` at the last revision (the release's) that reports
   * only `kept`: it confirms it stopped every other slice.
   */
  confirmStopped(id: string, kept: readonly string[]) {
    this.state.apply({
      revision: ++this.revision,
      events: [
        {
          type: "heartbeat",
          executorId: id,
          record: { status: "ACTIVE", timestampMs: this.now, appliedRevision: this.revision - 1 },
        },
        { type: "reports", executorId: id, reports: new Map(kept.map((k) => [k, ready(1)])) },
      ],
    }, this.now);
  }

  /** A heartbeat of `id`, an executor that understands warm handover, with `reports`. */
  warmBeat(id: string, reports: Record<string, ShardReport>) {
    this.state.apply({
      revision: ++this.revision,
      events: [
        {
          type: "heartbeat",
          executorId: id,
          record: { status: "ACTIVE", timestampMs: this.now, warmHandover: true },
        },
        { type: "reports", executorId: id, reports: new Map(Object.entries(reports)) },
      ],
    }, this.now);
  }

  pass(policy: RangesPolicy = this.policy, sliceEdits: readonly SliceEdit[] = []): Plan {
    const plan = planRangesPass(planInput(this.state, this.now, { sliceEdits }), policy);
    this.state.apply({
      revision: ++this.revision,
      events: [{ type: "assignment", seq: ++this.seq, delta: plan.delta }],
    }, this.now);
    return plan;
  }

  /** Owners by slice id, and a check that every slice has one and nothing else does. */
  owners(): Map<number, readonly string[]> {
    const map = this.state.sliceMap()!;
    const tables = this.state.tables();
    const out = new Map<number, readonly string[]>();
    for (const slice of map.slices) {
      const key = String(slice.id);
      const owner = tables.owners.get(key);
      out.set(slice.id, tables.ownerSets.get(key) ?? (owner === undefined ? [] : [owner]));
    }
    const ids = new Set(map.slices.map((s) => String(s.id)));
    for (const key of tables.owners.keys()) {
      assert.ok(ids.has(key), `owner of retired slice ${key}`);
    }
    return out;
  }
}

/** Places `ns` on e1 and e2; two neighbouring slices with different owners, and the owners. */
function neighboursApart(ns: Namespace) {
  ns.beat("e1");
  ns.beat("e2");
  ns.pass();
  const map = ns.state.sliceMap()!;
  const owners = ns.owners();
  const i = map.slices.findIndex((s, j) => {
    const next = map.slices[j + 1];
    return next !== undefined && owners.get(s.id)![0] !== owners.get(next.id)![0];
  });
  return { owners, left: map.slices[i]!, right: map.slices[i + 1]! };
}

function policyOf(settings: RangeSettings): RangesPolicy {
  return { kind: "ranges", settings, zoneKey: "zone", executorRetentionMs: 60_000 };
}

const ready = (load: number, topKeys?: { key: string; load: number }[]): ShardReport => ({
  status: "READY",
  load,
  ...(topKeys ? { topKeys } : {}),
});

Deno.test("ranges pass: a new namespace's slices are cut and placed together, with no move", () => {
  const ns = new Namespace();
  ns.beat("e1");
  ns.beat("e2");
  const plan = ns.pass();
  assert.equal(plan.moves, 0);
  assert.equal(plan.reasons?.placement, 8);
  assert.equal(plan.ranges?.slices, 8);
  const owners = ns.owners();
  assert.equal(owners.size, 8);
  const counts = Map.groupBy([...owners.values()], (o) => o[0]);
  assert.deepEqual([counts.get("e1")?.length, counts.get("e2")?.length], [4, 4]);
  // Nothing changes: the next pass commits nothing, the map included.
  const again = ns.pass();
  assert.deepEqual([again.delta.assign, again.delta.slices, again.delta.remove], [
    {},
    undefined,
    [],
  ]);
});

Deno.test("ranges pass: a hot slice is split and keeps its owner; the new slice needs no move", () => {
  const ns = new Namespace();
  ns.beat("e1");
  ns.beat("e2");
  ns.pass();
  const before = ns.owners();
  const hot = ns.state.sliceMap()!.slices[0]!;
  const owner = before.get(hot.id)![0]!;
  const reports: Record<string, ShardReport> = {};
  for (const [id, o] of before) {
    if (o[0] === owner) reports[String(id)] = ready(id === hot.id ? 100 : 1);
  }
  ns.beat(owner, reports);
  const plan = ns.pass(policyOf({ ...SETTINGS, churnBudget: 0 })); // no balancing moves
  assert.ok((plan.ranges?.splits ?? 0) >= 1, JSON.stringify(plan.ranges));
  assert.equal(plan.moves, 0);
  assert.equal(typeof plan.delta.slices, "string");
  const map = ns.state.sliceMap()!;
  assert.ok(map.size > before.size);
  // Every key of the hot slice is still owned by its owner.
  const after = ns.owners();
  const parts = map.slices.filter((s) => s.start >= hot.start && s.end <= hot.end);
  assert.ok(parts.length >= 2);
  for (const s of parts) assert.deepEqual(after.get(s.id), [owner]);
});

Deno.test("ranges pass: a lost executor's slices go to the others, counted as losses", () => {
  const ns = new Namespace();
  ns.beat("e1");
  ns.beat("e2");
  ns.pass();
  ns.now = 5_000; // e2 is stale: only e1 beats again
  ns.beat("e1");
  const plan = ns.pass();
  assert.equal(plan.reasons?.loss, 4);
  for (const owners of ns.owners().values()) assert.deepEqual(owners, ["e1"]);
});

Deno.test("ranges pass: a hot key gets a slice of its own, with replicas in an available namespace", () => {
  const ns = new Namespace(
    policyOf({ ...SETTINGS, hotKeyThreshold: 0.1, hotKeyReplicaShare: 0.5 }),
  );
  for (const id of ["e1", "e2", "e3", "e4"]) ns.beat(id);
  ns.pass();
  const key = "tenant-42";
  const map = ns.state.sliceMap()!;
  const home = map.sliceOfKey(key);
  const owner = ns.owners().get(home.id)![0]!;
  const reports: Record<string, ShardReport> = {};
  for (const [id, o] of ns.owners()) {
    if (o[0] === owner) {
      reports[String(id)] = id === home.id ? ready(400, [{ key, load: 380 }]) : ready(10);
    }
  }
  for (const id of ["e1", "e2", "e3", "e4"]) {
    if (id !== owner) {
      const mine: Record<string, ShardReport> = {};
      for (const [sid, o] of ns.owners()) if (o[0] === id) mine[String(sid)] = ready(10);
      ns.beat(id, mine);
    }
  }
  ns.beat(owner, reports);
  const plan = ns.pass();
  assert.equal(plan.ranges?.isolations, 1);
  const point = keyHash(key);
  const isolated = ns.state.sliceMap()!.sliceOfKey(key);
  assert.deepEqual([isolated.start, isolated.end], [point, point + 1n]);
  const owners = ns.owners().get(isolated.id)!;
  assert.ok(owners.length > 1, `replicas: ${owners}`);
  assert.deepEqual(plan.delta.sets?.[String(isolated.id)], owners);
});

Deno.test("ranges pass: cold neighbours merge, and the retired slice's key is removed", () => {
  const ns = new Namespace();
  ns.beat("e1");
  ns.pass();
  assert.equal(ns.state.sliceMap()!.size, 8);
  // One executor holds 8 slices; at most 2 each, the coldest neighbours merge.
  const plan = ns.pass(policyOf({ ...SETTINGS, slicesPerExecutor: { target: 1, min: 1, max: 2 } }));
  assert.equal(plan.ranges?.merges, 6, JSON.stringify(plan.ranges));
  assert.equal(plan.delta.remove.length, 6);
  assert.equal(ns.state.sliceMap()!.size, 2);
  assert.equal(plan.moves, 0);
  ns.owners(); // no retired slice keeps an owner
});

Deno.test("ranges pass: while the mass-loss brake holds, no slice moves for balance", () => {
  const ns = new Namespace();
  ns.beat("e1");
  ns.pass();
  const loads: Record<string, ShardReport> = {};
  for (const id of ns.owners().keys()) loads[String(id)] = ready(10);
  ns.beat("e1", loads);
  ns.beat("e2"); // a newcomer: balancing would move half the load to it
  const input = { ...planInput(ns.state, ns.now), brake: { executorsBefore: 1 } };
  const held = planRangesPass(input, ns.policy);
  assert.equal(held.moves, 0);
  const free = planRangesPass(planInput(ns.state, ns.now), ns.policy);
  assert.ok(free.moves > 0);
});

Deno.test("ranges pass: a split by hand keeps the owner, is pinned, and is not merged back", () => {
  const ns = new Namespace();
  ns.beat("e1");
  ns.beat("e2");
  ns.pass();
  const map = ns.state.sliceMap()!;
  const slice = map.slices[2]!;
  const owner = ns.owners().get(slice.id)![0]!;
  // Cold slices: left alone, the planner would merge neighbours; the split by hand stays.
  ns.beat(owner, { [String(slice.id)]: ready(4) });
  const at = slice.start + (slice.end - slice.start) / 4n;
  ns.pass(ns.policy, [{ kind: "split", sliceId: slice.id, at, pin: true }]);
  const after = ns.state.sliceMap()!;
  const right = after.slices[after.indexOfPoint(at)]!;
  assert.equal(right.start, at);
  assert.deepEqual([ns.owners().get(slice.id), ns.owners().get(right.id)], [[owner], [owner]]);
  assert.deepEqual([...ns.state.slicePins()].sort(), [slice.id, right.id].sort());
  for (let i = 0; i < 5; i++) ns.pass();
  assert.equal(ns.state.sliceMap()!.find(right.id)?.start, at, "still split");
  assert.deepEqual([ns.owners().get(slice.id), ns.owners().get(right.id)], [[owner], [owner]]);
  // Unpinned, the planner may merge them again (both are cold).
  ns.pass(ns.policy, [
    { kind: "pin", sliceId: slice.id, pinned: false },
    { kind: "pin", sliceId: right.id, pinned: false },
  ]);
  assert.deepEqual([...ns.state.slicePins()], []);
});

Deno.test("ranges pass: a merge by hand gives the right range to the left slice's owners", () => {
  const ns = new Namespace();
  const { owners, left, right } = neighboursApart(ns);
  ns.pass(ns.policy, [{ kind: "merge", sliceId: right.id, withId: left.id, pin: true }]);
  const after = ns.state.sliceMap()!;
  assert.equal(after.find(right.id), undefined);
  assert.deepEqual([after.byId(left.id).start, after.byId(left.id).end], [left.start, right.end]);
  assert.deepEqual(ns.owners().get(left.id), owners.get(left.id));
  assert.ok(ns.state.slicePins().has(left.id));
  assert.ok(!ns.state.tables().owners.has(String(right.id)), "the retired slice has no owner");
});

/**
 * A namespace under `policy` with warm handover (2 prepares at once) whose
 * slices e1 serves and reports; e2, which understands warm handover, joins.
 */
function warmJoin(policy: RangesPolicy) {
  const ns = new Namespace({
    ...policy,
    warm: { prepareTimeoutMs: 5_000, maxPreparesPerExecutor: 2 },
  });
  ns.beat("e1");
  ns.pass();
  const held = [...ns.owners().keys()].map(String);
  ns.beat("e1", Object.fromEntries(held.map((k) => [k, ready(1)])));
  const warmBeat = (reports: Record<string, ShardReport>) => ns.warmBeat("e2", reports);
  warmBeat({});
  return { ns, held, warmBeat };
}

const EXCLUSIVE: RangesPolicy = {
  ...policyOf(SETTINGS),
  exclusive: { leaseMs: 2_000, maxReliedOn: 10 },
};

Deno.test("ranges pass, exclusive: a balancing move asks the owner to release, then moves", () => {
  const ns = new Namespace(EXCLUSIVE);
  ns.beat("e1");
  ns.pass();
  const held = [...ns.owners().keys()].map(String);
  ns.beat("e1", Object.fromEntries(held.map((k) => [k, ready(1)])));
  ns.beat("e2");
  const plan = ns.pass();
  const released = plan.delta.release ?? [];
  assert.ok(released.length > 0, "e2 gets slices only through releases");
  for (const owners of ns.owners().values()) assert.deepEqual(owners, ["e1"], "nothing moved yet");
  // e1 confirms it stopped them: a heartbeat at the release's revision without them.
  const kept = held.filter((k) => !released.includes(k));
  ns.confirmStopped("e1", kept);
  ns.pass();
  const owners = ns.owners();
  for (const key of released) assert.deepEqual(owners.get(Number(key)), ["e2"], `slice ${key}`);
  for (const key of released) assert.ok(!ns.state.tables().releasing.has(key), "handed over");
});

Deno.test("ranges pass, exclusive: a lost owner's slices move once its lease is over", () => {
  const ns = new Namespace(EXCLUSIVE);
  ns.beat("e1");
  ns.beat("e2");
  ns.pass();
  const theirs = [...ns.owners()].filter(([, o]) => o[0] === "e2").map(([id]) => id);
  assert.ok(theirs.length > 0);
  ns.now = 2_100; // e2 is stale, its lease (2 s + margin) not over yet
  ns.beat("e1");
  const early = ns.pass();
  for (const id of theirs) assert.deepEqual(ns.owners().get(id), ["e2"]);
  assert.ok(early.wakeAtMs !== undefined && early.wakeAtMs > 2_100, "a wake at the lease's end");
  ns.now = 2_400;
  ns.beat("e1");
  const late = ns.pass();
  for (const id of theirs) assert.deepEqual(ns.owners().get(id), ["e1"]);
  assert.deepEqual(late.reliedOn.map((e) => e.executorId), ["e2"]);
});

Deno.test("ranges pass, exclusive: a slice split off starts on its parent's owner", () => {
  const ns = new Namespace(EXCLUSIVE);
  ns.beat("e1");
  ns.beat("e2");
  ns.pass();
  const hot = ns.state.sliceMap()!.slices[0]!;
  const owner = ns.owners().get(hot.id)![0]!;
  ns.beat(owner, { [String(hot.id)]: ready(100, [{ key: "k", load: 60 }]) });
  ns.pass();
  const map = ns.state.sliceMap()!;
  const parts = map.slices.filter((s) => s.start >= hot.start && s.end <= hot.end);
  assert.ok(parts.length >= 2, "split");
  for (const s of parts) assert.deepEqual(ns.owners().get(s.id), [owner]);
  for (const owners of ns.owners().values()) assert.equal(owners.length, 1, "one owner each");
});

Deno.test("ranges pass, warm handover: a move is prepared by its new owner first, then switched", () => {
  const { ns, warmBeat } = warmJoin(policyOf(SETTINGS));
  const plan = ns.pass();
  const prepared = plan.delta.prepare?.["e2"] ?? [];
  assert.equal(prepared.length, 2, "as many prepares as e2 may make at once");
  assert.equal(plan.handovers?.prepared, 2);
  for (const owners of ns.owners().values()) {
    assert.deepEqual(owners, ["e1"], "e1 serves them meanwhile");
  }
  // e2 prepared them: the next pass switches them, with the tokens their prepares announced.
  warmBeat(Object.fromEntries(prepared.map((k) => [k, { status: "PREPARED", load: 0 }])));
  const switched = ns.pass();
  assert.equal(switched.handovers?.warm, 2);
  for (const key of prepared) assert.deepEqual(ns.owners().get(Number(key)), ["e2"]);
  assert.deepEqual(Object.keys(switched.delta.tokens ?? {}).sort(), [...prepared].sort());
});

Deno.test("ranges pass, exclusive, warm handover: prepared first, then released, then switched", () => {
  const { ns, held, warmBeat } = warmJoin(EXCLUSIVE);
  const first = ns.pass();
  const prepared = first.delta.prepare?.["e2"] ?? [];
  assert.equal(prepared.length, 2, "prepared, not released yet");
  assert.deepEqual(first.delta.release ?? [], []);
  // e2 prepared them: e1 is asked to release them; e2 does not take them yet.
  warmBeat(Object.fromEntries(prepared.map((k) => [k, { status: "PREPARED", load: 0 }])));
  const second = ns.pass();
  assert.deepEqual([...(second.delta.release ?? [])].sort(), [...prepared].sort());
  for (const key of prepared) assert.deepEqual(ns.owners().get(Number(key)), ["e1"]);
  // e1 confirms it stopped them: e2 takes them with the tokens their prepares announced.
  const kept = held.filter((k) => !prepared.includes(k));
  ns.confirmStopped("e1", kept);
  const third = ns.pass();
  assert.equal(third.handovers?.warm, 2);
  for (const key of prepared) assert.deepEqual(ns.owners().get(Number(key)), ["e2"]);
  assert.deepEqual(Object.keys(third.delta.tokens ?? {}).sort(), [...prepared].sort());
});

Deno.test("ranges pass, exclusive: a merge by hand of slices with different owners is not made", () => {
  const ns = new Namespace(EXCLUSIVE);
  const { owners, left, right } = neighboursApart(ns);
  ns.pass(EXCLUSIVE, [{ kind: "merge", sliceId: left.id, withId: right.id, pin: true }]);
  assert.ok(ns.state.sliceMap()!.find(right.id), "both slices are still there");
  assert.deepEqual(ns.owners().get(right.id), owners.get(right.id));
});

Deno.test("ranges pass: edits by hand are reported by kind, by the pass that makes them only", () => {
  const ns = new Namespace();
  ns.beat("e1");
  ns.beat("e2");
  assert.equal(ns.pass().ranges?.byHand, undefined, "no edits, nothing reported");
  const map = ns.state.sliceMap()!;
  const [split, pinned] = [map.slices[2]!, map.slices[5]!];
  const at = split.start + (split.end - split.start) / 4n;
  const edits: SliceEdit[] = [
    { kind: "split", sliceId: split.id, at, pin: true },
    { kind: "pin", sliceId: pinned.id, pinned: true },
  ];
  const made = ns.pass(ns.policy, edits);
  assert.deepEqual(made.ranges?.byHand, { split: 1, merge: 0, pin: 1, unpin: 0 });
  // Still pending (its caller has not seen it yet): made already, so not counted again.
  assert.equal(ns.pass(ns.policy, edits).ranges?.byHand, undefined);
  const right = ns.state.sliceMap()!.slices[ns.state.sliceMap()!.indexOfPoint(at)]!;
  const unpinned = ns.pass(ns.policy, [
    { kind: "pin", sliceId: pinned.id, pinned: false },
    { kind: "merge", sliceId: split.id, withId: right.id, pin: false },
  ]);
  assert.deepEqual(unpinned.ranges?.byHand, { split: 0, merge: 1, pin: 0, unpin: 1 });
});
