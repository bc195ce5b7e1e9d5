// deno-lint-ignore-file no-console -- a simulation prints its figures
/**
 * The range planner on a simulated workload (issue 43's measure, in-process
 * and without the service): keys with Zipf-distributed load on 100
 * executors, measured per slice (exact load and a Space-Saving sketch, as
 * executors will report them), one planner pass per step. Three phases per
 * exponent: a new namespace settling; the hot spot moving (every key's load
 * handed to the key a third of the key list further on); one key jumping to
 * 20% of all load. Prints max/mean executor load, slices, moves and keyspace
 * moved after each pass, and the time the planner took (measuring the keys
 * is not counted).
 *
 * Run: `deno run -A bench/tools/ranges_simulation.ts [keys]` (default 1,000,000).
 *
 * @module
 */
import { simulate } from "../suites/ranges.ts";

const KEYS = Number(Deno.args[0] ?? 1_000_000);
const EXECUTORS = 100;

for (const s of [0.8, 1.1]) {
  console.log(`\n**Zipf s = ${s}**, ${KEYS.toLocaleString("en")} keys, ${EXECUTORS} executors\n`);
  console.log(
    "| phase | pass | max/mean | slices | slices/executor | splits | merges | isolated | moves | keyspace moved | plan ms |",
  );
  console.log("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |");
  const { phases, hotOwners } = simulate(KEYS, s);
  for (const phase of phases) {
    phase.passes.forEach((f, pass) =>
      console.log(
        `| ${phase.name} | ${pass} | ${f.maxOverMean.toFixed(3)} | ${f.slices} | ` +
          `${f.slicesPerExecutor.min}-${f.slicesPerExecutor.max} | ${f.splits} | ${f.merges} | ` +
          `${f.isolations} | ${f.moves} | ${(f.keyspaceMoved * 100).toFixed(2)}% | ` +
          `${f.planMs.toFixed(0)} |`,
      )
    );
  }
  console.log(`\nthe 20% key's slice: ${hotOwners} owners`);
}
