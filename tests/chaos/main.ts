// deno-lint-ignore-file no-console -- a command line that prints its progress and summary
/**
 * `deno task chaos`: one bounded, seeded chaos run against real etcd,
 * service and SDK processes on loopback. Prints progress, a summary table,
 * and writes `results.json` and `events.jsonl`. Exits 1 on any violation.
 *
 * ```sh
 * deno task chaos                                  # short run, random seed
 * deno task chaos --seed 42 --duration 10m --faults 200
 * deno task chaos --scenario poison-exit           # one named scenario (scenarios.ts)
 * deno task chaos --scenario mass-loss             # issue 41's brakes (brake_scenarios.ts)
 * ```
 *
 * @module
 */
import { parseArgs } from "node:util";
import { parseDuration } from "../../src/shared/duration.ts";
import type { NetworkMode } from "./cluster_network.ts";
import { type ChaosReport, runChaos } from "./run.ts";
import { degradationRows } from "./fault_summary.ts";
import { FAULT_KINDS, type FaultKind, parseFaultKinds } from "./faults.ts";
import { table } from "./summary.ts";
import { runScenario, type Scenario, type ScenarioReport, SCENARIOS } from "./scenarios.ts";
import { BRAKE_SCENARIOS, type BrakeScenarioReport, runBrakeScenario } from "./brake_scenarios.ts";

const USAGE = `Usage: deno task chaos [--seed N] [--duration 90s] [--faults N] [--shards 8]
                       [--kinds K1,K2] [--available] [--out DIR]
                       [--network auto|netns|loopback]
       deno task chaos --scenario poison-exit|poison-throw [--shards 8] [--out DIR]
       deno task chaos --scenario mass-loss|rolling-deploy [--out DIR]

  --seed N          seed of the fault schedule (printed; default random)
  --duration D      time for injecting faults, e.g. 90s, 10m (default 90s)
  --faults N        most faults to inject (default: one of each kind)
  --shards N        shards per namespace (default 8)
  --available       leave namespace chaos-x available too (by default it is
                    "ownership: exclusive", where any overlap is a violation)
  --out DIR         where to write results.json and events.jsonl (default a temp dir)
  --kinds K1,K2     inject only these kinds (default all: ${FAULT_KINDS.join(", ")})
  --network MODE    netns: each etcd member, instance and executor in a network
                    namespace of its own (root, iproute2, nftables); loopback:
                    all on 127.0.0.1 (the kinds that cut real links are
                    skipped); auto (default): netns where possible
  --scenario NAME   run one named scenario instead of the random faults:
                    poison-exit (a shard whose processor exits its process) or
                    poison-throw (a shard whose start always throws); passes
                    when it is quarantined after at most 3 executors failed
                    with it and every other shard runs; mass-loss (6 of
                    10 executors frozen at once) or rolling-deploy (10
                    executors replaced in batches, asking can-stop)`;

/** Prints the summary of a scenario run. */
export function printScenario(r: ScenarioReport): void {
  console.log(table(`\nChaos scenario ${r.scenario}`, [
    ["executors, shards per namespace", `${r.executors}, ${r.shards}`],
    ["poison shard", r.poison],
    ["quarantined after", r.quarantinedAfterMs === null ? "NEVER" : `${r.quarantinedAfterMs} ms`],
    ["executors failed with it (goal <= 3)", r.executorsFailed],
    ["process deaths", r.processDeaths],
    ["poison hits after the quarantine", r.hitsAfterQuarantine],
    ["shards quarantined", r.quarantined.join(", ") || "none"],
    [
      "others running again after",
      r.settledAfterMs === null ? "NOT settled" : `${r.settledAfterMs} ms`,
    ],
    ["other shards not running at end", r.unownedAtEnd.join(", ") || "none"],
    ["results", `${r.outDir}/results.json`],
  ]));
  console.log(r.passed ? "PASSED" : "FAILED");
}

/** Prints the summary of a brake scenario run. */
export function printBrakeScenario(r: BrakeScenarioReport): void {
  console.log(table(`\nChaos scenario ${r.scenario}`, [
    ["executors, shards per namespace", `${r.executors}, ${r.shards}`],
    ...r.figures,
    ["results", `${r.outDir}/results.json`],
  ]));
  for (const failure of r.failures) console.log(`  GOAL MISSED: ${failure}`);
  console.log(r.passed ? "PASSED" : "FAILED");
}

/** Prints the summary of a report. */
export function printReport(report: ChaosReport): void {
  const r = report.reassignment;
  const { heartbeats, fencing } = report.checks;
  const kinds = Object.entries(report.faultCounts).sort(([a], [b]) => a.localeCompare(b));
  const crashKinds = new Map<string, number>();
  for (const c of report.crashes) {
    const key = `${c.process.replace(/-\d+$/, "")}: ${c.known ?? `code ${c.code}`}`;
    crashKinds.set(key, (crashKinds.get(key) ?? 0) + 1);
  }
  console.log(table(`\nChaos run, seed ${report.seed} (${(report.wallMs / 1000).toFixed(0)} s)`, [
    ...kinds.map(([kind, n]) => [`fault ${kind}`, n] as const),
    ["faults, total", report.faults.length],
    ["network", report.network.mode],
    ...report.skippedKinds.map((s) => [`skipped ${s.kind}`, s.reason] as const),
    ...degradationRows(report.faults),
    ["unexpected exits", report.crashes.length],
    ...[...crashKinds].map(([k, n]) => [`  ${k}`, n] as const),
    ["reassignments measured", r.count],
    ["reassignment p50/p99/max", `${r.p50} / ${r.p99} / ${r.max} ms (bound ${report.boundMs} ms)`],
    [
      "overlaps, exclusive",
      `${report.overlaps.exclusive} (fenced, allowed: ${report.overlaps.exclusiveAllowedFenced})`,
    ],
    [
      "overlaps, available",
      `${report.overlaps.available} (allowed; longest ${report.overlaps.availableMaxMs} ms)`,
    ],
    [
      "heartbeats answered / failed",
      `${heartbeats.answered} / ${heartbeats.failed}`,
    ],
    ["needless moves", report.checks.needlessMoves],
    [
      "  shards taken, excused",
      Object.entries(report.checks.shardTakes).filter(([verdict]) => verdict !== "needless")
        .map(([verdict, n]) => `${verdict} ${n}`).join(", ") || "none",
    ],
    [
      "fenced writes acked / refused",
      `${fencing.writes} / ${fencing.rejected} (${fencing.shards} shards)`,
    ],
    [
      "fencing: stale accepted / lost",
      `${report.violations.filter((v) => v.rule === "fencing-stale").length} / ` +
      `${report.violations.filter((v) => v.rule === "fencing-lost").length}`,
    ],
    ["persistence after restart", report.persistence.problems.length === 0 ? "intact" : "CHANGED"],
    ["shards moved after restart", report.persistence.movedAfterRestart.length],
    ["spectator mismatches at end", report.spectator.mismatchesAtEnd],
    ["harness errors", report.harnessErrors.length],
    ["violations", report.violations.length],
    ["results", `${report.outDir}/results.json`],
  ]));
  for (const v of report.violations.slice(0, 20)) {
    console.log(`  VIOLATION ${v.rule}: ${v.message}`);
  }
  for (const e of report.harnessErrors.slice(0, 10)) console.log(`  HARNESS ERROR: ${e}`);
  for (const m of report.persistence.movedAfterRestart.slice(0, 10)) {
    console.log(`  moved after the restart: ${m}`);
  }
  console.log(report.passed ? "PASSED" : "FAILED");
}

async function main(): Promise<number> {
  let values;
  try {
    values = parseArgs({
      args: Deno.args,
      options: {
        seed: { type: "string" },
        duration: { type: "string" },
        faults: { type: "string" },
        shards: { type: "string" },
        available: { type: "boolean" },
        out: { type: "string" },
        scenario: { type: "string" },
        kinds: { type: "string" },
        network: { type: "string" },
        help: { type: "boolean" },
      },
    }).values;
  } catch (error) {
    console.error(`${error instanceof Error ? error.message : error}\n\n${USAGE}`);
    return 2;
  }
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  const integer = (name: string, text: string | undefined, max: number) => {
    if (text === undefined) return undefined;
    const n = Number(text);
    if (!Number.isInteger(n) || n < 0 || n > max) {
      throw new RangeError(
        `--${name} must be an integer from 0 to ${max}, got ${JSON.stringify(text)}`,
      );
    }
    return n;
  };
  const brake = BRAKE_SCENARIOS.find((s) => s === values.scenario);
  if (brake !== undefined) {
    const report = await runBrakeScenario(brake, {
      ...(values.out === undefined ? {} : { outDir: values.out }),
      log: (line) => console.log(line),
    });
    printBrakeScenario(report);
    return report.passed ? 0 : 1;
  }
  if (values.scenario !== undefined) {
    const scenario = values.scenario as Scenario;
    if (!SCENARIOS.includes(scenario)) {
      console.error(
        `--scenario must be one of ${[...SCENARIOS, ...BRAKE_SCENARIOS].join(", ")}, got ${
          JSON.stringify(values.scenario)
        }\n\n${USAGE}`,
      );
      return 2;
    }
    const shards = values.shards === undefined ? 8 : Number(values.shards);
    if (!Number.isInteger(shards) || shards < 2 || shards > 1_000) {
      console.error(`--shards must be an integer from 2 to 1000, got ${values.shards}\n\n${USAGE}`);
      return 2;
    }
    const report = await runScenario(scenario, {
      shards,
      ...(values.out === undefined ? {} : { outDir: values.out }),
      log: (line) => console.log(line),
    });
    printScenario(report);
    return report.passed ? 0 : 1;
  }
  let report: ChaosReport;
  try {
    const seed = integer("seed", values.seed, 0xffff_ffff);
    const faults = integer("faults", values.faults, 100_000);
    const shards = integer("shards", values.shards, 1_000);
    const durationMs = values.duration === undefined ? undefined : parseDuration(values.duration);
    const kinds: FaultKind[] | undefined = values.kinds === undefined
      ? undefined
      : parseFaultKinds(values.kinds);
    const network = (values.network ?? "auto") as NetworkMode;
    if (!["auto", "netns", "loopback"].includes(network)) {
      throw new RangeError(
        `--network must be auto, netns or loopback, got ${JSON.stringify(values.network)}`,
      );
    }
    report = await runChaos({
      ...(seed === undefined ? {} : { seed }),
      ...(faults === undefined ? {} : { faults }),
      ...(shards === undefined ? {} : { shards }),
      ...(durationMs === undefined ? {} : { durationMs }),
      ...(kinds === undefined ? {} : { kinds }),
      network,
      exclusive: !(values.available ?? false),
      ...(values.out === undefined ? {} : { outDir: values.out }),
      log: (line) => console.log(line),
    });
  } catch (error) {
    if (error instanceof RangeError || error instanceof TypeError) {
      console.error(`${error.message}\n\n${USAGE}`);
      return 2;
    }
    throw error;
  }
  printReport(report);
  return report.passed ? 0 : 1;
}

if (import.meta.main) Deno.exit(await main());
