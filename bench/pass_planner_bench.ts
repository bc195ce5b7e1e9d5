/**
 * Benchmarks of a whole rebalance pass's planning (`planPass`: eligible
 * executors, the shard universe, the load balancer, the delta), the part of a
 * pass the targets are about: 100,000 shards × 1,000 executors
 * (< 100 ms) and 1,000,000 × 10,000 (< 1 s). No I/O; inputs are built before
 * timing. GREEDY with Zipf loads reported by the owners, move budget 1,000
 * (the default `maxMovesPerPass`).
 *
 * Scenarios: "steady" (balanced, nothing to do), "executor lost" (one
 * executor stale, its shards re-placed), "executor joins" (one new, empty
 * executor), "initial" (every shard unowned).
 *
 * The picture keeps its owners as the service keeps a fixed namespace's, by
 * shard number (state/fixed_owner_index.ts); the rows marked "owners in maps"
 * keep them in string-keyed maps, as before, for comparison in the same run.
 *
 * Run: `deno bench -A bench/pass_planner_bench.ts`
 *
 * @module
 */
import { reportsFrom } from "../src/core/shared_reports.ts";
import { indexKeys } from "../src/core/index_keys.ts";
import { seededRandom, zipfLoads } from "../src/loadbalancer/_fixtures.ts";
import { greedyLoadBalancer } from "../src/loadbalancer/mod.ts";
import { type BalancedPolicy, planInput, planPass } from "../src/plan/mod.ts";
import { NamespaceState } from "../src/state/namespace_state.ts";
import type { StoredExecutor } from "../src/store/store.ts";

interface Size {
  readonly label: string;
  readonly shards: number;
  readonly executors: number;
}

const SIZES: readonly Size[] = [
  { label: "100k×1k", shards: 100_000, executors: 1_000 },
  { label: "1M×10k", shards: 1_000_000, executors: 10_000 },
];
const SCENARIOS = ["steady", "executor lost", "executor joins", "initial"] as const;
type Scenario = typeof SCENARIOS[number];

const TTL = 10_000;
const WALL = 1_700_000_000_000;
const POLICY: Omit<BalancedPolicy, "universe"> = {
  kind: "balanced",
  balancer: greedyLoadBalancer,
  maxMoves: 1_000,
  executorRetentionMs: 60_000,
};

/** A namespace picture as a leader's cache would hold it, loaded at monotonic time 0. */
function stateFor(size: Size, scenario: Scenario, maps: boolean): NamespaceState {
  const keys = indexKeys(size.shards);
  const loads = zipfLoads(size.shards, 1, seededRandom(42));
  const owned = scenario === "initial" ? 0 : size.shards;
  const holders = scenario === "executor joins" ? size.executors - 1 : size.executors;
  const owners = new Map<string, string>();
  const reports: Record<string, { status: "READY"; load: number }>[] = Array.from(
    { length: size.executors },
    () => ({}),
  );
  for (let s = 0; s < owned; s++) {
    const e = s % holders;
    owners.set(keys[s]!, `executor-${e}`);
    reports[e]![keys[s]!] = { status: "READY", load: loads[s]! };
  }
  const executors = new Map<string, StoredExecutor>();
  for (let e = 0; e < size.executors; e++) {
    const id = `executor-${e}`;
    const lost = scenario === "executor lost" && e === 0;
    executors.set(id, {
      executorId: id,
      heartbeat: { status: "ACTIVE", timestampMs: lost ? 0 : WALL },
      heartbeatRevision: 10 + e,
      metadata: { address: `${id}:8080` },
      reports: reportsFrom(reports[e]!),
    });
  }
  const state = new NamespaceState(
    "bench",
    maps ? { heartbeatTtlMs: TTL } : { heartbeatTtlMs: TTL, shardNum: size.shards },
  );
  state.load(
    {
      revision: 100_000,
      executors,
      assignmentSeq: 1,
      owners,
      assignedRevisions: new Map(),
      assignmentTimes: new Map(),
      drained: new Set(),
      executorDrains: new Map(),
      requested: new Map(),
    },
    0,
    WALL,
  );
  return state;
}

const built = new Map<string, NamespaceState>();

for (const size of SIZES) {
  for (const scenario of SCENARIOS) {
    for (const maps of [false, true]) {
      benchPass(size, scenario, maps);
    }
  }
}

function benchPass(size: Size, scenario: Scenario, maps: boolean): void {
  const key = `${size.label} ${scenario}${maps ? " (owners in maps)" : ""}`;
  Deno.bench({
    name: `planPass ${key}`,
    group: size.label,
    ...(size.shards >= 1_000_000 ? { n: 10, warmup: 2 } : {}),
    fn(b) {
      let state = built.get(key);
      if (state === undefined) {
        built.clear();
        built.set(key, state = stateFor(size, scenario, maps));
      }
      b.start();
      const universe = { kind: "fixed", shardNum: size.shards } as const;
      planPass(planInput(state, 1_000), { ...POLICY, universe });
      b.end();
    },
  });
}
