// deno-lint-ignore-file no-console -- a command line that prints its progress and summary
/**
 * `deno task soak`: the chaos cluster under a steady load for a long time,
 * with a fault every few minutes; prints every process's resources at the
 * start and the end of the judged window and exits 1 on growth beyond noise
 * or on a checker violation (see `soak.ts`).
 *
 * ```sh
 * deno task soak --duration 1h
 * deno task soak --duration 3m --fault-every 45s --sample-every 2s   # what CI runs
 * ```
 *
 * @module
 */
import { parseArgs } from "node:util";
import { parseDuration } from "../../src/shared/duration.ts";
import { runSoak, type SoakReport } from "./soak.ts";
import { table } from "./summary.ts";

const USAGE = `Usage: deno task soak [--duration 1h] [--fault-every 3m] [--sample-every 10s]
                      [--warm-up D] [--shards 16] [--seed N] [--out DIR]

  --duration D      how long to soak (default 1h)
  --fault-every D   one fault (a pause, a cut-off, an etcd member kill or a
                    quorum loss) this often (default 3m)
  --sample-every D  resources sampled this often (default 10s)
  --warm-up D       samples before this are not judged (default a quarter
                    of the run, at most 10m)
  --shards N        shards per namespace (default 16)
  --seed N          seed of the fault schedule (default random)
  --out DIR         where to write soak.json, samples.jsonl, events.jsonl`;

function fail(message: string): never {
  console.error(`${message}\n\n${USAGE}`);
  Deno.exit(2);
}

function ms(name: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  try {
    return parseDuration(value);
  } catch (error) {
    fail(`--${name}: ${(error as Error).message}`);
  }
}

function count(name: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value)) fail(`--${name} must be a non-negative integer, got ${value}`);
  return Number(value);
}

const MIB = 1024 * 1024;
const human = (metric: string, v: number) =>
  metric === "rss" || metric === "etcd-db-in-use" ? `${(v / MIB).toFixed(1)} MiB` : `${v}`;

/** Prints the summary of a soak. */
export function printSoak(r: SoakReport): void {
  const kinds = new Map<string, number>();
  for (const f of r.faults) kinds.set(f.kind, (kinds.get(f.kind) ?? 0) + 1);
  console.log(table(`\nSoak, seed ${r.seed} (${Math.round(r.wallMs / 1000)} s)`, [
    ["samples (judged after)", `${r.samples} (${Math.round(r.warmUpMs / 1000)} s)`],
    ...[...kinds].map(([k, n]) => [`fault ${k}`, n] as const),
    [
      "reads, namespace cycles, failed calls",
      `${r.load.reads}, ${r.load.namespaceCycles}, ${r.load.errors}`,
    ],
    ...r.series.map((s) =>
      [
        `${s.process} ${s.metric}`,
        s.unjudged
          ? `not judged (${s.samples} samples)`
          : `${human(s.metric, s.early)} → ${human(s.metric, s.late)}${s.leaked ? "  GREW" : ""}`,
      ] as const
    ),
    ...r.changeLog.map((l) =>
      [
        `change log ${l.namespace}`,
        `at most ${l.max} entries, ${l.folds} folds${l.overBound ? "  OVER BOUND" : ""}`,
      ] as const
    ),
    ["unexpected exits", r.crashes.length],
    ["violations", r.violations.length],
    ["harness errors", r.harnessErrors.length],
    ["results", `${r.outDir}/soak.json`],
  ]));
  for (const v of r.violations.slice(0, 10)) console.log(`  violation ${v.rule}: ${v.message}`);
  for (const e of r.harnessErrors.slice(0, 10)) console.log(`  harness error: ${e}`);
  for (const c of r.keyChanges.slice(0, 10)) {
    console.log(`  keys ${c.shape}: ${c.warmUp} → ${c.end} (after the warm-up → at the end)`);
  }
  console.log(r.passed ? "PASSED" : "FAILED");
}

if (import.meta.main) {
  let values;
  try {
    ({ values } = parseArgs({
      args: Deno.args,
      options: {
        duration: { type: "string" },
        "fault-every": { type: "string" },
        "sample-every": { type: "string" },
        "warm-up": { type: "string" },
        shards: { type: "string" },
        seed: { type: "string" },
        out: { type: "string" },
        help: { type: "boolean", short: "h" },
      },
      strict: true,
    }));
  } catch (error) {
    fail((error as Error).message);
  }
  if (values.help) {
    console.log(USAGE);
    Deno.exit(0);
  }
  const shards = count("shards", values.shards);
  if (shards === 0) fail("--shards must be at least 1");
  const report = await runSoak({
    durationMs: ms("duration", values.duration),
    faultEveryMs: ms("fault-every", values["fault-every"]),
    sampleEveryMs: ms("sample-every", values["sample-every"]),
    warmUpMs: ms("warm-up", values["warm-up"]),
    shards,
    seed: count("seed", values.seed),
    outDir: values.out,
    log: (line) => console.log(line),
  });
  printSoak(report);
  Deno.exit(report.passed ? 0 : 1);
}
