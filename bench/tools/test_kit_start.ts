// deno-lint-ignore-file no-console -- a diagnostic tool prints its result
/**
 * How long the test kit (`packages/testing/`) takes to start a Shard
 * Manager, create a 16-shard namespace (until it has a leader) and stop
 * again, in this process, over `runs` rounds after one warm-up round (which
 * pays for loading the modules). Prints the median and the largest of each
 * step; docs/sdk_testing.md quotes it.
 *
 * ```sh
 * deno run -A bench/tools/test_kit_start.ts [runs=20]
 * ```
 *
 * @module
 */
import { startTestShardManager } from "../../packages/testing/mod.ts";

const runs = Number(Deno.args[0] ?? 20);
const steps: Record<"start" | "createNamespace" | "stop", number[]> = {
  start: [],
  createNamespace: [],
  stop: [],
};
for (let i = 0; i <= runs; i++) {
  const t0 = performance.now();
  const sm = await startTestShardManager();
  const t1 = performance.now();
  await sm.createNamespace({ name: "orders", type: "fixed", shardNum: 16 });
  const t2 = performance.now();
  await sm.stop();
  const t3 = performance.now();
  if (i === 0) continue;
  steps.start.push(t1 - t0);
  steps.createNamespace.push(t2 - t1);
  steps.stop.push(t3 - t2);
}
for (const [step, ms] of Object.entries(steps)) {
  ms.sort((a, b) => a - b);
  const median = ms[ms.length >> 1]!;
  console.log(`${step}: median ${median.toFixed(1)} ms, max ${ms.at(-1)!.toFixed(1)} ms`);
}
