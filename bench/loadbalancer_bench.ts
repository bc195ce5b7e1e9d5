/**
 * Benchmarks of the load-balancer planners at the sizes the leader must
 * handle: 100,000 shards × 1,000 executors (target < 100 ms) and
 * 1,000,000 × 10,000 (target < 1 s). Inputs are built before timing.
 *
 * Scenarios: "initial" assigns every shard from scratch; "join" starts from a
 * balanced assignment on all but the last executor, which has just joined.
 * Greedy runs with unknown loads and with Zipf (exponent 1) loads.
 *
 * Run: `deno bench bench/loadbalancer_bench.ts`
 *
 * @module
 */
import { makeInput, roundRobin, seededRandom, zipfLoads } from "../src/loadbalancer/_fixtures.ts";
import { greedyLoadBalancer, naiveLoadBalancer } from "../src/loadbalancer/mod.ts";
import type { BalanceInput, LoadBalancer } from "../src/loadbalancer/mod.ts";

interface Size {
  readonly label: string;
  readonly shards: number;
  readonly executors: number;
}

const SIZES: readonly Size[] = [
  { label: "100k×1k", shards: 100_000, executors: 1_000 },
  { label: "1M×10k", shards: 1_000_000, executors: 10_000 },
];

/** Inputs for one size, built once and lazily so that filtered runs stay cheap. */
function scenarios(size: Size): Record<string, BalanceInput> {
  const { shards, executors } = size;
  const unknown = new Float64Array(shards).fill(NaN);
  const zipf = zipfLoads(shards, 1, seededRandom(42));
  // A load-balanced start on all but the last executor, as the greedy planner leaves it.
  const zipfStart = greedyLoadBalancer.plan(makeInput(shards, executors - 1, undefined, zipf), {
    maxMoves: 0,
  });
  return {
    "initial, unknown loads": makeInput(shards, executors, undefined, unknown),
    "join, unknown loads": makeInput(shards, executors, roundRobin(shards, executors - 1), unknown),
    "initial, Zipf loads": makeInput(shards, executors, undefined, zipf),
    "join, Zipf loads": makeInput(shards, executors, zipfStart, zipf),
  };
}

function register(balancer: LoadBalancer, size: Size, scenario: string, maxMoves: number): void {
  let input: BalanceInput | undefined;
  const big = size.shards >= 1_000_000;
  Deno.bench({
    name: `${balancer.name} ${size.label} ${scenario}`,
    group: `${size.label} ${scenario}`,
    ...(big ? { n: 10, warmup: 2 } : {}),
    fn(b) {
      input ??= cache(size)[scenario]!;
      b.start();
      balancer.plan(input, { maxMoves });
      b.end();
    },
  });
}

const built = new Map<string, Record<string, BalanceInput>>();
function cache(size: Size): Record<string, BalanceInput> {
  let inputs = built.get(size.label);
  if (inputs === undefined) built.set(size.label, inputs = scenarios(size));
  return inputs;
}

for (const size of SIZES) {
  // Budget: 1% of the shards, ten times what a joining executor needs.
  const maxMoves = size.shards / 100;
  for (const scenario of ["initial, unknown loads", "join, unknown loads"]) {
    register(naiveLoadBalancer, size, scenario, maxMoves);
    register(greedyLoadBalancer, size, scenario, maxMoves);
  }
  for (const scenario of ["initial, Zipf loads", "join, Zipf loads"]) {
    register(greedyLoadBalancer, size, scenario, maxMoves);
  }
}
