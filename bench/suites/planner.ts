/**
 * 3. Rebalance pass: plan computation alone, from the `deno bench` files
 * `bench/loadbalancer_bench.ts` (the planners) and
 * `bench/pass_planner_bench.ts` (a whole `planPass`).
 *
 * @module
 */
import { repeatMicro } from "../lib/micro.ts";
import type { Figure, Suite, SuiteContext, SuiteOutput } from "../lib/result.ts";

/** The suite. */
export const planner: Suite = {
  name: "planner",
  title: "3. Rebalance pass",
  run,
};

function target(name: string): Figure["target"] {
  if (name.includes("100k×1k")) return { op: "<", value: 100, text: "< 100 ms" };
  if (name.includes("1M×10k")) return { op: "<", value: 1000, text: "< 1 s" };
  return undefined;
}

async function run(ctx: SuiteContext): Promise<SuiteOutput> {
  const runs = ctx.quick ? 1 : 3;
  const filter = ctx.quick ? "100k" : undefined;
  const figures: Figure[] = [];
  for (const file of ["pass_planner_bench.ts", "loadbalancer_bench.ts"]) {
    const results = await repeatMicro(
      file,
      runs,
      (i) =>
        ctx.progress(
          `deno bench ${file}${filter ? ` --filter ${filter}` : ""}, run ${i + 1}/${runs}`,
        ),
      filter,
    );
    for (const [name, samples] of results) {
      const t = target(name);
      figures.push({
        label: name,
        unit: "ms",
        digits: 1,
        samples: samples.map((ns) => ns / 1e6),
        ...(t ? { target: t } : {}),
      });
    }
  }
  return {
    figures,
    method: [
      "`deno bench -A --json` of `bench/pass_planner_bench.ts` and `bench/loadbalancer_bench.ts`, " +
      `${runs} time(s); each sample is one run's mean time per iteration.`,
      "`planPass` is the whole plan of a pass from the leader's in-memory picture: eligible " +
      "executors, the shard universe, owners and loads as typed arrays, GREEDY with Zipf (s=1) " +
      "loads reported by the owners and the default budget of 1,000 moves, and the delta. The " +
      "planner rows (`naive …`, `greedy …`) time the load balancer alone, with a budget of 1% of " +
      "the shards.",
      "Single-threaded pure code; the benchmark process had the machine to itself apart from " +
      "other users' load (see the load average).",
    ],
    findings: [],
  };
}
