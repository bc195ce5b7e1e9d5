// deno-lint-ignore-file no-console -- benchmarks print their progress and results
/**
 * The benchmark suite of issue 5: every measurement against a real etcd and
 * real service processes on loopback.
 *
 * ```sh
 * deno run -A bench/run.ts                  # everything; writes BENCHMARKS.md
 * deno run -A bench/run.ts --quick          # CI smoke: small sizes, table on stdout only
 * deno run -A bench/run.ts --only propagation,failover   # re-run some (merged into BENCHMARKS.md)
 * deno run -A bench/run.ts --list           # suite names
 * ```
 *
 * Flags: `--quick`, `--only NAME[,NAME]`, `--write` (also write BENCHMARKS.md
 * after a quick run), `--no-profile` (skip the extra `--cpu-prof` runs of a
 * full run). Full runs keep each suite's result in `bench/results/` and
 * rebuild BENCHMARKS.md from them.
 *
 * @module
 */
import { parseArgs } from "node:util";
import { describeMachine, loadAverage, sourceVersion } from "./lib/machine.ts";
import type { SuiteResult } from "./lib/result.ts";
import { installSignalCleanup, interrupted, Scope } from "./lib/scope.ts";
import { HEADER, rowsOf, textTable } from "./lib/table.ts";
import { readResults, writeReport, writeResult } from "./report.ts";
import { SUITES } from "./suites/mod.ts";

const { values } = parseArgs({
  args: Deno.args,
  options: {
    quick: { type: "boolean", default: false },
    only: { type: "string" },
    write: { type: "boolean", default: false },
    "no-profile": { type: "boolean", default: false },
    list: { type: "boolean", default: false },
  },
});

if (values.list) {
  for (const suite of SUITES) console.log(`${suite.name.padEnd(12)} ${suite.title}`);
  Deno.exit(0);
}
const names = values.only?.split(",").map((n) => n.trim()).filter((n) => n !== "");
const unknown = names?.filter((n) => !SUITES.some((s) => s.name === n)) ?? [];
if (unknown.length > 0) {
  console.error(`Unknown suite(s): ${unknown.join(", ")}. Known: ${SUITES.map((s) => s.name)}`);
  Deno.exit(2);
}
const selected = names ? SUITES.filter((s) => names.includes(s.name)) : SUITES;
const quick = values.quick;
const mode = quick ? "quick" : "full";
// Every suite starts its own etcd with default settings; an external one would not do.
Deno.env.delete("ETCD_ENDPOINTS");
installSignalCleanup();

const artifacts = await Deno.makeTempDir({ prefix: "sm-bench-" });
const started = performance.now();
const clock = () => {
  const s = Math.round((performance.now() - started) / 1000);
  return `${String(Math.floor(s / 60)).padStart(2, "0")}:${String(s % 60).padStart(2, "0")}`;
};
console.error(`Shard Manager benchmarks (${mode}); profiles and logs in ${artifacts}`);

const results: SuiteResult[] = [];
for (const suite of selected) {
  const scope = new Scope();
  const suiteStart = performance.now();
  const startedAt = new Date().toISOString();
  const load = loadAverage();
  const source = await sourceVersion();
  console.error(`[${clock()}] ${suite.title} (load average ${load}, code ${source})`);
  const base = () => ({
    name: suite.name,
    title: suite.title,
    mode,
    startedAt,
    seconds: (performance.now() - suiteStart) / 1000,
    loadAverage: load,
    source,
  } as const);
  let result: SuiteResult;
  try {
    const output = await suite.run({
      quick,
      profile: !quick && !values["no-profile"],
      scope,
      artifacts,
      progress: (message) => console.error(`[${clock()}]   ${message}`),
    });
    result = { ...base(), ...output };
  } catch (error) {
    const message = error instanceof Error ? error.stack ?? error.message : String(error);
    console.error(`[${clock()}]   FAILED: ${message}`);
    result = { ...base(), figures: [], method: [], findings: [], error: message };
  } finally {
    await scope.close();
  }
  // An interrupted run keeps nothing: its cleanup failed the suite on purpose.
  if (interrupted()) await new Promise(() => {}); // the signal handler exits
  results.push(result);
  if (!quick) await writeResult(result);
}

console.log(`\n${textTable([HEADER, ...rowsOf(results)].map((r) => r.slice()))}\n`);
console.error(
  `[${clock()}] done: ${results.map((r) => `${r.name} ${Math.round(r.seconds)} s`).join(", ")}`,
);
if (!quick || values.write) {
  const machine = await describeMachine();
  const stored = quick ? results : await readResults(SUITES.map((s) => s.name));
  const path = await writeReport(stored, machine, mode);
  console.error(`wrote ${path}`);
}
Deno.exit(results.some((r) => r.error !== undefined) ? 1 : 0);
