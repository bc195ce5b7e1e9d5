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
import { RANGE_DEFAULTS } from "../../src/config/range_settings.ts";
import { ZipfSimulation } from "../../src/plan/ranges/_zipf_simulation.ts";

const KEYS = Number(Deno.args[0] ?? 1_000_000);
const EXECUTORS = 100;

function row(phase: string, pass: number, sim: ZipfSimulation): void {
  const f = sim.pass();
  const ms = f.planMs;
  console.log(
    `| ${phase} | ${pass} | ${f.maxOverMean.toFixed(3)} | ${f.slices} | ` +
      `${f.slicesPerExecutor.min}-${f.slicesPerExecutor.max} | ${f.splits} | ${f.merges} | ` +
      `${f.isolations} | ${f.moves} | ${(f.keyspaceMoved * 100).toFixed(2)}% | ${ms.toFixed(0)} |`,
  );
}

for (const s of [0.8, 1.1]) {
  const sim = new ZipfSimulation({ keys: KEYS, s, executors: EXECUTORS, settings: RANGE_DEFAULTS });
  console.log(`\n**Zipf s = ${s}**, ${KEYS.toLocaleString("en")} keys, ${EXECUTORS} executors\n`);
  console.log(
    "| phase | pass | max/mean | slices | slices/executor | splits | merges | isolated | moves | keyspace moved | plan ms |",
  );
  console.log("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |");
  for (let p = 0; p < 4; p++) row("new", p, sim);
  const before = Float64Array.from(sim.loads);
  const shift = Math.floor(KEYS / 3);
  for (let i = 0; i < KEYS; i++) sim.loads[(i + shift) % KEYS] = before[i]!;
  for (let p = 0; p < 4; p++) row("hot spot moved", p, sim);
  const total = sim.loads.reduce((a, b) => a + b, 0);
  const jumper = KEYS - 1; // the coldest key
  sim.loads[jumper] = (0.2 / 0.8) * (total - sim.loads[jumper]!);
  for (let p = 0; p < 4; p++) row("one key at 20%", p, sim);
  const hot = sim.slices.find((x) => x.slice.end - x.slice.start === 1n && x.load > total * 0.1);
  console.log(`\nthe 20% key's slice: ${hot?.owners.length ?? 0} owners`);
}
