import assert from "node:assert/strict";
import { reportsFrom } from "../core/shared_reports.ts";
import type { ShardReport } from "../core/types.ts";
import { loadBalancerFor } from "../loadbalancer/mod.ts";
import { NamespaceState } from "../state/namespace_state.ts";
import type { StoredExecutor } from "../store/store.ts";
import { leaseMarginMs } from "./handover_guard.ts";
import { type TestPassOptions as PassOptions, testPlan as planPass } from "./_testing.ts";

const TTL = 1_000;
const LEASE = 2_000;
const EXPIRY = LEASE + leaseMarginMs(LEASE);
const WALL = 1_700_000_000_000;
const SHAPE = { type: "fixed", shardNum: 2 } as const;

interface Executor {
  status?: "ACTIVE" | "DRAINING";
  /** Store revision of its last heartbeat record. */
  revision: number;
  /** Shards its last heartbeat reported. */
  reports?: string[];
  /** Revision of the latest answer it had acted on when it sent that heartbeat. @default {revision - 1} */
  applied?: number;
}

interface Picture {
  executors: Record<string, Executor>;
  owners?: Record<string, string>;
  /** Shard → revision of its release. */
  releasing?: Record<string, number>;
  drained?: string[];
}

/** A state loaded at monotonic 0: every executor was last seen then. */
function stateOf(picture: Picture): NamespaceState {
  const state = new NamespaceState("ns", { heartbeatTtlMs: TTL });
  const executors = new Map<string, StoredExecutor>();
  for (const [id, e] of Object.entries(picture.executors)) {
    const reports: Record<string, ShardReport> = {};
    for (const shard of e.reports ?? []) reports[shard] = { status: "READY", load: 1 };
    executors.set(id, {
      executorId: id,
      heartbeat: {
        status: e.status ?? "ACTIVE",
        timestampMs: WALL,
        appliedRevision: e.applied ?? e.revision - 1,
      },
      heartbeatRevision: e.revision,
      metadata: {},
      reports: reportsFrom(reports),
    });
  }
  state.load(
    {
      revision: 100,
      executors,
      assignmentSeq: 1,
      owners: new Map(Object.entries(picture.owners ?? {})),
      assignedRevisions: new Map(Object.keys(picture.owners ?? {}).map((s) => [s, 5])),
      assignmentTimes: new Map(),
      releasing: new Map(Object.entries(picture.releasing ?? {})),
      drained: new Set(picture.drained ?? []),
      executorDrains: new Map(),
      requested: new Map(),
    },
    0,
    WALL,
  );
  return state;
}

function exclusive(maxMoves = 0): PassOptions {
  return {
    balancer: loadBalancerFor("greedy"),
    maxMoves,
    executorRetentionMs: 600_000,
    exclusive: { leaseMs: LEASE },
  };
}

/** Owners after the plan: a shard is never given to B while A still holds it. */
function owners(state: NamespaceState, plan: ReturnType<typeof planPass>): Record<string, string> {
  const out = new Map(state.owned());
  for (const s of [...plan.delta.unassign, ...plan.delta.remove]) out.delete(s);
  for (const [e, shards] of Object.entries(plan.delta.assign)) {
    for (const s of shards) out.set(s, e);
  }
  return Object.fromEntries([...out].sort());
}

Deno.test("exclusive: a draining owner's shard is released first, never given to another yet", () => {
  const state = stateOf({
    executors: {
      a: { status: "DRAINING", revision: 50, reports: ["0", "1"] },
      b: { revision: 51 },
    },
    owners: { "0": "a", "1": "a" },
  });
  const plan = planPass(state, SHAPE, 10, exclusive());
  assert.deepEqual(plan.delta.release, ["0", "1"]);
  assert.deepEqual(plan.delta.assign, {});
  assert.deepEqual(plan.delta.unassign, []);
  assert.deepEqual(owners(state, plan), { "0": "a", "1": "a" });
});

Deno.test("exclusive: a releasing shard moves once its owner's heartbeat after the release omits it", () => {
  const confirmed = stateOf({
    executors: { a: { status: "DRAINING", revision: 61, reports: ["1"] }, b: { revision: 51 } },
    owners: { "0": "a", "1": "a" },
    releasing: { "0": 60, "1": 60 },
  });
  const plan = planPass(confirmed, SHAPE, 10, exclusive());
  assert.deepEqual(plan.delta.assign, { b: ["0"] }, "1 is still reported: it waits");
  assert.equal(plan.delta.release, undefined, "nothing to release again");
  assert.deepEqual(plan.reliedOn, []);
});

Deno.test("exclusive: a report older than the release proves nothing", () => {
  // a's last record (revision 59) predates the release at 60: a may not have seen it yet.
  const state = stateOf({
    executors: { a: { status: "DRAINING", revision: 59, reports: [] }, b: { revision: 51 } },
    owners: { "0": "a" },
    releasing: { "0": 60 },
  });
  const plan = planPass(state, { type: "fixed", shardNum: 1 }, 10, exclusive());
  assert.deepEqual(plan.delta.assign, {});
  assert.equal(plan.wakeAtMs, EXPIRY, "retries when a's lease is certainly over");
});

Deno.test("exclusive: a heartbeat sent before its executor saw the release proves nothing", () => {
  // Recorded at 70, after the release at 60, but sent having acted only on an answer at 55:
  // a delayed heartbeat from before a learned of the shard.
  const state = stateOf({
    executors: { a: { status: "DRAINING", revision: 70, applied: 55 }, b: { revision: 51 } },
    owners: { "0": "a" },
    releasing: { "0": 60 },
  });
  const plan = planPass(state, { type: "fixed", shardNum: 1 }, 10, exclusive());
  assert.deepEqual(plan.delta.assign, {});
  const seen = stateOf({
    executors: { a: { status: "DRAINING", revision: 70, applied: 60 }, b: { revision: 51 } },
    owners: { "0": "a" },
    releasing: { "0": 60 },
  });
  const moved = planPass(seen, { type: "fixed", shardNum: 1 }, 10, exclusive());
  assert.deepEqual(moved.delta.assign, { b: ["0"] });
});

Deno.test("exclusive: a silent owner's shards move only after lease + margin, fenced on its record", () => {
  const picture: Picture = {
    executors: { a: { revision: 50, reports: ["0", "1"] }, b: { revision: 51 } },
    owners: { "0": "a", "1": "a" },
  };
  for (const now of [TTL + 1, EXPIRY - 1, EXPIRY]) {
    const state = stateOf(picture);
    const plan = planPass(state, SHAPE, now, exclusive());
    assert.deepEqual(plan.delta.assign, {}, `not at ${now}`);
    assert.deepEqual(plan.delta.release, ["0", "1"], "released meanwhile, in case it is alive");
  }
  const plan = planPass(stateOf(picture), SHAPE, EXPIRY + 1, exclusive(), { heard: { b: EXPIRY } });
  assert.deepEqual(plan.delta.assign, { b: ["0", "1"] });
  assert.deepEqual(plan.reliedOn, [{ executorId: "a", heartbeatRevision: 50 }]);
});

Deno.test("exclusive: an unowned shard still reported by a live executor is not assigned", () => {
  const picture: Picture = {
    executors: { a: { revision: 50, reports: ["0"] }, b: { revision: 51 } },
  };
  // e.g. after a namespace reset: nobody owns "0", but a still runs it.
  const early = planPass(stateOf(picture), { type: "fixed", shardNum: 1 }, 10, exclusive());
  const placed = Object.values(early.delta.assign).flat();
  assert.ok(
    !placed.includes("0") || early.delta.assign.a?.includes("0"),
    "only its runner may get it",
  );
  const drained: Picture = { ...picture, executors: { ...picture.executors } };
  drained.executors.a = { status: "DRAINING", revision: 50, reports: ["0"] };
  const blocked = planPass(stateOf(drained), { type: "fixed", shardNum: 1 }, 10, exclusive());
  assert.deepEqual(blocked.delta.assign, {});
  const later = planPass(
    stateOf(drained),
    { type: "fixed", shardNum: 1 },
    EXPIRY + 1,
    exclusive(),
    { heard: { b: EXPIRY } },
  );
  assert.deepEqual(later.delta.assign, { b: ["0"] });
});

Deno.test("exclusive: a drained shard is released, then unowned once confirmed", () => {
  const owned: Picture = {
    executors: { a: { revision: 50, reports: ["0"] } },
    owners: { "0": "a" },
    drained: ["0"],
  };
  const first = planPass(stateOf(owned), { type: "fixed", shardNum: 1 }, 10, exclusive());
  assert.deepEqual([first.delta.release, first.delta.unassign], [["0"], []]);
  const confirmed = stateOf({
    ...owned,
    executors: { a: { revision: 70 } },
    releasing: { "0": 60 },
  });
  const second = planPass(confirmed, { type: "fixed", shardNum: 1 }, 10, exclusive());
  assert.deepEqual([second.delta.release, second.delta.unassign], [undefined, ["0"]]);
});

Deno.test("exclusive: a balancing move goes through a release; available moves at once", () => {
  const picture: Picture = {
    executors: { a: { revision: 50, reports: ["0", "1"] }, b: { revision: 51 } },
    owners: { "0": "a", "1": "a" },
  };
  const plan = planPass(stateOf(picture), SHAPE, 10, exclusive(10));
  assert.equal(plan.delta.release?.length, 1);
  assert.deepEqual(plan.delta.assign, {});
  assert.equal(plan.moves, 1);
  const { exclusive: _, ...availableOptions } = exclusive(10);
  const available = planPass(stateOf(picture), SHAPE, 10, availableOptions);
  assert.equal(Object.values(available.delta.assign).flat().length, 1);
  assert.equal(available.delta.release, undefined);
});

Deno.test("exclusive: never two owners over a random walk of heartbeats and passes", () => {
  // A small model: executors run what their last answer allowed; the planner only ever
  // sees records, and a shard is owned by one executor at a time in every committed state.
  let seed = 7;
  const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
  let moved = 0;
  for (let round = 0; round < 300; round++) {
    const ids = ["a", "b", "c"];
    const revision = (i: number) => 40 + i;
    const executors: Record<string, Executor> = {};
    const owned: Record<string, string> = {};
    const releasing: Record<string, number> = {};
    for (const [i, id] of ids.entries()) {
      executors[id] = {
        status: random() < 0.3 ? "DRAINING" : "ACTIVE",
        revision: revision(i) + Math.floor(random() * 30),
        reports: [],
      };
      executors[id]!.applied = executors[id]!.revision - Math.floor(random() * 20);
    }
    for (const shard of ["0", "1", "2", "3"]) {
      const owner = ids[Math.floor(random() * ids.length)]!;
      owned[shard] = owner;
      if (random() < 0.5) releasing[shard] = 55;
      if (random() < 0.7) executors[owner]!.reports!.push(shard);
    }
    const state = stateOf({ executors, owners: owned, releasing });
    const now = random() < 0.5 ? 10 : EXPIRY + 1;
    // Late in the walk one executor was heard from again; the others are certainly gone.
    const heard = ids[Math.floor(random() * ids.length)]!;
    const plan = planPass(
      state,
      { type: "fixed", shardNum: 4 },
      now,
      exclusive(4),
      now > EXPIRY ? { heard: { [heard]: now } } : {},
    );
    for (const [target, shards] of Object.entries(plan.delta.assign)) {
      for (const shard of shards) {
        const owner = owned[shard];
        if (owner === target || owner === undefined) continue;
        moved++;
        const e = executors[owner]!;
        const confirmed = releasing[shard] !== undefined && e.revision > releasing[shard]! &&
          e.applied! >= releasing[shard]! && !e.reports!.includes(shard);
        const expired = now > EXPIRY && owner !== heard;
        assert.ok(confirmed || expired, `round ${round}: ${shard} left ${owner} unconfirmed`);
        if (!confirmed) {
          assert.ok(
            plan.reliedOn.some((u) => u.executorId === owner),
            "the commit is fenced on it",
          );
        }
        for (const [other, x] of Object.entries(executors)) {
          const live = now <= EXPIRY || other === heard;
          if (other !== target && live) {
            assert.ok(!x.reports!.includes(shard), `round ${round}: ${other} still runs ${shard}`);
          }
        }
      }
    }
  }
  assert.ok(moved > 50, `the walk moved shards (${moved})`);
});
