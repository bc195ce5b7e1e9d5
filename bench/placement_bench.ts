/**
 * Benchmarks of the placement planners at Route 53's scale: 2,048
 * executors in 3 zones, shards of 4 sharing at most 2 (shuffle), shards of 3
 * (replicated), for 10,000 and 100,000 shards. Inputs are built before
 * timing; the churn scenarios start from a plan made in setup.
 *
 * Scenarios: "initial" places every shard; "leave" replans after 8
 * executors left (their shards get one new owner each); "join" replans after
 * 20 executors joined (shuffle: nothing moves; replicated: up to 1% of the
 * shards move to them).
 *
 * Last, issue 7's figure through the leader's wiring: a pass of a
 * shuffle-sharded namespace placing 100,000 tenants on 2,048 executors.
 *
 * Run: `deno bench --allow-all bench/placement_bench.ts`
 *
 * @module
 */
import { makeExecutors, makeShards } from "../src/placement/_fixtures.ts";
import {
  blastRadius,
  measureOverlap,
  ownerSet,
  ownerSetFunction,
  type OwnerSetInput,
  planReplicas,
  planShuffle,
} from "../src/placement/mod.ts";
import { planInput, planPass, type ReplicatedPolicy, replicationSeed } from "../src/plan/mod.ts";
import { NamespaceState } from "../src/state/namespace_state.ts";
import type { StoredExecutor } from "../src/store/store.ts";

const EXECUTORS = 2_048;
const ZONES = 3;
const SIZES = [10_000, 100_000];

interface Scenarios {
  readonly initial: OwnerSetInput;
  readonly leave: OwnerSetInput;
  readonly join: OwnerSetInput;
}

const built = new Map<string, Scenarios>();

/** Inputs for one planner and size, built once and lazily so that filtered runs stay cheap. */
function scenarios(mode: "shuffle" | "replicas", shards: number): Scenarios {
  const key = `${mode} ${shards}`;
  let cached = built.get(key);
  if (cached !== undefined) return cached;
  const executors = makeExecutors(EXECUTORS, ZONES);
  const initial = {
    shards: makeShards(shards),
    owners: makeShards(shards).map(() => []),
    executors,
  };
  const planned = mode === "shuffle"
    ? planShuffle(initial, { replicas: 4, maxOverlap: 2 }).owners
    : planReplicas(initial, { replicas: 3 }).owners;
  const gone = new Set(Array.from({ length: 8 }, (_, i) => `e${i * 97}`));
  const joined = makeExecutors(EXECUTORS + 20, ZONES).map((e) =>
    e.id.startsWith("e") && Number(e.id.slice(1)) >= EXECUTORS ? { ...e, id: `new-${e.id}` } : e
  );
  cached = {
    initial,
    leave: { ...initial, owners: planned, executors: executors.filter((e) => !gone.has(e.id)) },
    join: { ...initial, owners: planned, executors: joined },
  };
  built.set(key, cached);
  return cached;
}

for (const shards of SIZES) {
  const label = `${shards / 1000}k×${EXECUTORS / 1024}Ki`;
  const slow = shards >= 100_000 ? { n: 5, warmup: 1 } : {};
  for (const scenario of ["initial", "leave", "join"] as const) {
    Deno.bench({
      name: `shuffle ${label} ${scenario} (4 owners, maxOverlap 2)`,
      group: `shuffle ${label}`,
      ...slow,
      fn(b) {
        const input = scenarios("shuffle", shards)[scenario];
        b.start();
        planShuffle(input, { replicas: 4, maxOverlap: 2 });
        b.end();
      },
    });
    Deno.bench({
      name: `replicas ${label} ${scenario} (3 owners)`,
      group: `replicas ${label}`,
      ...slow,
      fn(b) {
        const input = scenarios("replicas", shards)[scenario];
        b.start();
        planReplicas(input, { replicas: 3, maxMoves: shards / 100 });
        b.end();
      },
    });
  }
  Deno.bench({
    name: `blastRadius ${label} shuffle sets`,
    group: `measure ${label}`,
    ...slow,
    fn(b) {
      const { leave, initial } = scenarios("shuffle", shards);
      b.start();
      blastRadius(leave.owners, initial.executors);
      b.end();
    },
  });
  Deno.bench({
    name: `measureOverlap ${label} shuffle sets`,
    group: `measure ${label}`,
    ...slow,
    fn(b) {
      const { leave } = scenarios("shuffle", shards);
      b.start();
      measureOverlap(leave.owners, { bound: 2 });
      b.end();
    },
  });
}

const clientExecutors = makeExecutors(EXECUTORS, ZONES);
let key = 0;
Deno.bench({
  name: `ownerSet one key, ${EXECUTORS} executors, 4 owners`,
  group: "stateless",
  fn() {
    ownerSet(1, `customer-${key++}`, clientExecutors, 4);
  },
});
const ownersOf = ownerSetFunction(1, clientExecutors);
Deno.bench({
  name: `ownerSetFunction one key, ${EXECUTORS} executors prepared, 4 owners`,
  group: "stateless",
  fn() {
    ownersOf(`customer-${key++}`, 4);
  },
});

// Issue 7's figure, through the leader's wiring: one pass of a shuffle-sharded
// namespace (replicas 4, maxOverlap 2) placing 100,000 requested tenants on
// 2,048 executors in 3 zones (planPass → planShuffle → the assignment delta),
// and the same pass once every tenant is placed (nothing to do).
const TENANTS = 100_000;
function tenantsState(placed: readonly (readonly string[])[] | undefined): NamespaceState {
  const executors = new Map<string, StoredExecutor>();
  for (const e of makeExecutors(EXECUTORS, ZONES)) {
    executors.set(e.id, {
      executorId: e.id,
      heartbeat: { status: "ACTIVE", timestampMs: WALL },
      heartbeatRevision: 1,
      metadata: e.metadata ?? {},
      reports: new Map(),
    });
  }
  const keys = makeShards(TENANTS);
  const owners = new Map<string, string>();
  const ownerSets = new Map<string, readonly string[]>();
  const requested = new Map<string, number>();
  keys.forEach((key, i) => {
    const set = placed?.[i];
    if (set === undefined) return void requested.set(key, i + 1);
    owners.set(key, set[0]!);
    ownerSets.set(key, set);
  });
  const state = new NamespaceState("tenants", { heartbeatTtlMs: 10_000 });
  state.load(
    {
      revision: TENANTS + 1,
      executors,
      assignmentSeq: 1,
      owners,
      ownerSets,
      assignedRevisions: new Map(),
      assignmentTimes: new Map(),
      drained: new Set(),
      executorDrains: new Map(),
      requested,
    },
    0,
    WALL,
  );
  return state;
}
const WALL = 1_700_000_000_000;
const shufflePass: ReplicatedPolicy = {
  kind: "replicated",
  universe: { kind: "ephemeral" },
  maxMoves: 1_000,
  executorRetentionMs: 60_000,
  replicas: 4,
  placement: "shuffle",
  maxOverlap: 2,
  zoneKey: "zone",
  seed: replicationSeed("tenants"),
};
let fresh: NamespaceState | undefined, steady: NamespaceState | undefined;
Deno.bench({
  name: "100,000 shuffle-sharded tenants on 2,048 executors (shards of 4, maxOverlap 2): pass",
  group: "shuffle namespace pass",
  n: 3,
  warmup: 1,
  fn(b) {
    fresh ??= tenantsState(undefined);
    b.start();
    const plan = planPass(planInput(fresh, 1), shufflePass);
    b.end();
    if (plan.placement?.shardsOverBound !== 0) throw new Error("the bound was not kept");
  },
});
Deno.bench({
  name: "100,000 shuffle-sharded tenants on 2,048 executors: steady pass (nothing to do)",
  group: "shuffle namespace pass",
  n: 3,
  warmup: 1,
  fn(b) {
    if (steady === undefined) {
      const input = scenarios("shuffle", TENANTS).initial;
      steady = tenantsState(planShuffle(input, { replicas: 4, maxOverlap: 2 }).owners);
    }
    b.start();
    planPass(planInput(steady, 1), shufflePass);
    b.end();
  },
});
