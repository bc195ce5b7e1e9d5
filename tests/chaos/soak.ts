/**
 * A soak: the chaos cluster under a steady mixed load for a long time, a
 * fault every few minutes, and every process's resources sampled all along.
 * It fails when a series grows beyond noise (see `growth.ts`), on the
 * chaos checker's violations, when any process exits (no soak fault ends
 * one), and when a namespace's change log passes its bound (the store's
 * keys are judged without the change log, whose fold every 64 changes makes
 * an hour-long sawtooth at the soak's pace: `change_log_keys.ts`).
 *
 * The load: the executors' heartbeats and processors and the spectator's
 * watch (the chaos cluster's own), reads of every namespace's state every
 * few seconds, and a namespace created and deleted every 30 s (leaders,
 * watches and store keys that must all go away again).
 *
 * The faults are those that stress without restarting our processes (pauses,
 * cut-offs, etcd member kills and quorum losses), so that every instance and
 * SDK process lives through the whole soak and its growth is judged from its
 * first sample to its last. A process that exits anyway fails the soak; it is
 * restarted, and judged from its longest life only.
 *
 * @module
 */
import { check, type Violation } from "./checker.ts";
import { ChaosCluster } from "./cluster.ts";
import { CHAOS_BOUND_TIMINGS, chaosNamespaces } from "./config.ts";
import { reassignmentBoundMs } from "./bounds.ts";
import { keyCensus, sampleEtcd } from "./etcd_stats.ts";
import { type ChangeLogVerdict, ChangeLogWatch, splitCensus } from "./change_log_keys.ts";
import { type FaultKind, faultSchedule, runFault } from "./faults.ts";
import { type Growth, type GrowthLimit, judgeGrowth, type Point } from "./growth.ts";
import { sampleProcess } from "./process_stats.ts";
import { SeededRandom } from "./random.ts";
import { type Crash, Recorder } from "./recorder.ts";
import { soakLoad } from "./soak_load.ts";

/** How to soak. */
export interface SoakOptions {
  readonly seed?: number | undefined;
  /** @default {3600000} one hour */
  readonly durationMs?: number | undefined;
  /** @default {180000} */
  readonly faultEveryMs?: number | undefined;
  /** @default {10000} */
  readonly sampleEveryMs?: number | undefined;
  /** Samples before this are not judged. @default {a quarter of the run, at most 10 minutes} */
  readonly warmUpMs?: number | undefined;
  /** Shards per namespace. @default {16} */
  readonly shards?: number | undefined;
  /** Where to write `soak.json` and `samples.jsonl`. @default {a new temporary dir} */
  readonly outDir?: string | undefined;
  readonly log?: (line: string) => void | undefined;
}

/** The verdict on one process's (or etcd's) series. */
export interface SeriesVerdict extends Growth {
  readonly process: string;
  readonly metric: "rss" | "fds" | "etcd-db-in-use" | "etcd-keys";
}

/** What a soak found. */
export interface SoakReport {
  readonly seed: number;
  readonly startedAt: string;
  readonly wallMs: number;
  readonly durationMs: number;
  readonly warmUpMs: number;
  readonly samples: number;
  readonly faults: readonly { at: number; kind: FaultKind; target: string; holdMs: number }[];
  readonly load: {
    readonly reads: number;
    readonly namespaceCycles: number;
    readonly errors: number;
  };
  readonly series: readonly SeriesVerdict[];
  readonly leaks: readonly SeriesVerdict[];
  readonly violations: readonly Violation[];
  readonly crashes: readonly Crash[];
  readonly harnessErrors: readonly string[];
  /**
   * The keys under the prefix by shape (`etcd_stats.ts` `keyShape`) when
   * judging began and at the end, so that a growth of `etcd-keys` names what
   * grew; shapes whose count did not change are left out.
   */
  readonly keyChanges: readonly { shape: string; warmUp: number; end: number }[];
  /**
   * Each namespace's assignment change log, judged against its bound rather
   * than for growth (`etcd-keys` leaves it out; see `change_log_keys.ts`).
   */
  readonly changeLog: readonly ChangeLogVerdict[];
  readonly outDir: string;
  readonly passed: boolean;
}

/** Faults that leave every service and SDK process running (see the module doc). */
export const SOAK_FAULT_KINDS: readonly FaultKind[] = [
  "service-pause",
  "executor-pause",
  "executor-cutoff",
  "etcd-member-kill",
  "etcd-quorum-loss",
];

/** Leak limits per metric: growth must pass both to fail the soak. */
export const GROWTH_LIMITS: Readonly<Record<SeriesVerdict["metric"], GrowthLimit>> = {
  rss: { relative: 0.25, absolute: 48 * 1024 * 1024 },
  fds: { relative: 0.5, absolute: 24 },
  "etcd-db-in-use": { relative: 0.5, absolute: 8 * 1024 * 1024 },
  "etcd-keys": { relative: 0.1, absolute: 50 },
};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Runs one soak; see the module doc. */
export async function runSoak(options: SoakOptions = {}): Promise<SoakReport> {
  const seed = options.seed ?? crypto.getRandomValues(new Uint32Array(1))[0]!;
  const durationMs = options.durationMs ?? 3_600_000;
  const faultEveryMs = options.faultEveryMs ?? 180_000;
  const sampleEveryMs = options.sampleEveryMs ?? 10_000;
  const warmUpMs = options.warmUpMs ?? Math.min(600_000, Math.round(durationMs / 4));
  const log = options.log ?? (() => {});
  const random = new SeededRandom(seed);
  const outDir = options.outDir ?? await Deno.makeTempDir({ prefix: `soak-${seed}-` });
  await Deno.mkdir(outDir, { recursive: true });
  const recorder = new Recorder(`${outDir}/events.jsonl`);
  const samplesFile = await Deno.open(`${outDir}/samples.jsonl`, {
    create: true,
    write: true,
    truncate: true,
  });
  const namespaces = chaosNamespaces({ exclusive: true, shards: options.shards ?? 16 });
  const boundMs = reassignmentBoundMs({
    ...CHAOS_BOUND_TIMINGS,
    ownershipLeaseMs: CHAOS_BOUND_TIMINGS.heartbeatTTLMs,
  });
  const started = Date.now();
  const harnessErrors: string[] = [];
  const faults: SoakReport["faults"][number][] = [];
  const points = new Map<string, Point[]>(); // `${process}\u0000${metric}\u0000${generation}`
  let samples = 0;
  log(`soak: seed ${seed}, ${durationMs / 1000} s, a fault every ${faultEveryMs / 1000} s`);
  const cluster = await ChaosCluster.start({
    namespaces,
    recorder,
    dir: outDir,
    // A short retention, so that history kept past it would show as growth within the soak.
    historyMaxAge: "2m",
    // Compacted as production etcd is (docs/operations.md), or its database in use grows with
    // every revision the load writes.
    etcdAutoCompaction: "1m",
    onCrash: (c) =>
      log(
        `  unexpected exit: ${c.process} code ${c.code}\n    ${
          c.stderrTail.split("\n").join("\n    ")
        }`,
      ),
    onError: (message) => harnessErrors.push(message),
  });
  const changeLog = new ChangeLogWatch();
  const add = (process: string, generation: number, metric: string, at: number, v: number) => {
    const key = `${process}\u0000${metric}\u0000${generation}`;
    const list = points.get(key) ?? [];
    list.push([at, v]);
    points.set(key, list);
  };
  const sample = async () => {
    const at = Date.now();
    const row: Record<string, unknown> = { at };
    const supervised = [...cluster.services, ...cluster.executors, ...cluster.spectators];
    await Promise.all(supervised.map(async (p) => {
      const s = p.pid === undefined ? undefined : await sampleProcess(p.pid);
      if (s === undefined) return;
      add(p.name, p.generation, "rss", at, s.rssBytes);
      add(p.name, p.generation, "fds", at, s.fds);
      row[p.name] = s;
    }));
    await Promise.all(cluster.etcd.members.map(async (m) => {
      const s = m.pid === undefined ? undefined : await sampleProcess(m.pid);
      if (s === undefined) return;
      row[`etcd-${m.name}`] = s;
    }));
    const harness = await sampleProcess(Deno.pid);
    if (harness) row.harness = harness;
    const etcd = await sampleEtcd(cluster.etcd.endpoints, `${cluster.prefix}/`);
    if (etcd) {
      add("etcd", 0, "etcd-db-in-use", at, etcd.dbInUseBytes);
      row.etcd = etcd;
    }
    const census = await keyCensus(cluster.etcd.endpoints, `${cluster.prefix}/`);
    if (census) {
      // The change log rises for about an hour between folds by design: judged by its bound.
      const split = splitCensus(census);
      add("etcd", 0, "etcd-keys", at, split.others);
      changeLog.add(split.logs);
      row.etcdKeys = { others: split.others, logs: Object.fromEntries(split.logs) };
    }
    samples++;
    await samplesFile.write(new TextEncoder().encode(JSON.stringify(row) + "\n"));
  };

  const load = soakLoad(cluster, namespaces.map((n) => n.name), (e) => harnessErrors.push(e));
  let violations: Violation[] = [];
  let censusAtWarmUp: Record<string, number> | undefined;
  let censusAtEnd: Record<string, number> | undefined;
  try {
    const until = started + durationMs;
    let nextSample = Date.now();
    let nextFault = Date.now() + faultEveryMs;
    const plans = faultSchedule(random, 10_000).filter((p) => SOAK_FAULT_KINDS.includes(p.kind));
    let lastLog = Date.now();
    while (Date.now() < until) {
      if (Date.now() >= nextSample) {
        await sample();
        nextSample += sampleEveryMs;
      }
      if (censusAtWarmUp === undefined && Date.now() >= started + warmUpMs) {
        censusAtWarmUp = await keyCensus(cluster.etcd.endpoints, `${cluster.prefix}/`);
      }
      if (Date.now() >= nextFault && faults.length < plans.length) {
        const plan = plans[faults.length]!;
        const target = plan.kind.startsWith("etcd") ? "etcd" : `#${plan.targets[0]}`;
        faults.push({ at: Date.now(), kind: plan.kind, target, holdMs: plan.holdMs });
        log(`  fault ${plan.kind} ${target} for ${plan.holdMs} ms`);
        // Samples go on while the fault holds.
        void runFault(cluster, recorder, plan).catch((e) =>
          harnessErrors.push(`${plan.kind}: ${e}`)
        );
        nextFault += faultEveryMs;
      }
      if (Date.now() - lastLog >= 60_000) {
        lastLog = Date.now();
        log(
          `  ${Math.round((Date.now() - started) / 1000)} s: ${samples} samples, ` +
            `${faults.length} faults, ${load.stats().namespaceCycles} namespace cycles`,
        );
      }
      await sleep(Math.max(10, Math.min(nextSample, nextFault, until) - Date.now()));
    }
    await load.stop();
    await sleep(boundMs); // the last fault heals and the shards settle before the check
    censusAtEnd = await keyCensus(cluster.etcd.endpoints, `${cluster.prefix}/`);
    violations = [
      ...check(recorder.events, { namespaces, boundMs, from: started, until: Date.now() })
        .violations,
    ];
  } finally {
    await load.stop();
    await cluster.close().catch((e) => harnessErrors.push(`close: ${e}`));
    recorder.close();
    samplesFile.close();
  }
  const series = judgeAll(points, started + warmUpMs);
  const leaks = series.filter((s) => s.leaked);
  const logs = changeLog.verdicts();
  const report: SoakReport = {
    seed,
    startedAt: new Date(started).toISOString(),
    wallMs: Date.now() - started,
    durationMs,
    warmUpMs,
    samples,
    faults,
    load: load.stats(),
    series,
    leaks,
    violations,
    crashes: recorder.crashes,
    harnessErrors,
    keyChanges: keyChanges(censusAtWarmUp ?? {}, censusAtEnd ?? {}),
    changeLog: logs,
    outDir,
    // The soak's faults leave every service and SDK process running: any exit is a failure.
    passed: leaks.length === 0 && violations.length === 0 && harnessErrors.length === 0 &&
      recorder.crashes.length === 0 && samples > 0 && logs.every((l) => !l.overBound),
  };
  await Deno.writeTextFile(`${outDir}/soak.json`, JSON.stringify(report, null, 2) + "\n");
  return report;
}

/** The shapes whose count differs between two censuses, most grown first. */
function keyChanges(
  warmUp: Readonly<Record<string, number>>,
  end: Readonly<Record<string, number>>,
): { shape: string; warmUp: number; end: number }[] {
  const shapes = new Set([...Object.keys(warmUp), ...Object.keys(end)]);
  return [...shapes].map((shape) => ({ shape, warmUp: warmUp[shape] ?? 0, end: end[shape] ?? 0 }))
    .filter((c) => c.warmUp !== c.end)
    .sort((a, b) => (b.end - b.warmUp) - (a.end - a.warmUp) || a.shape.localeCompare(b.shape));
}

/** One verdict per process and metric, from the generation with the most samples. */
function judgeAll(points: ReadonlyMap<string, Point[]>, warmUpUntil: number): SeriesVerdict[] {
  const longest = new Map<string, Point[]>();
  for (const [key, list] of points) {
    const [process, metric] = key.split("\u0000");
    const id = `${process}\u0000${metric}`;
    if ((longest.get(id)?.length ?? 0) < list.length) longest.set(id, list);
  }
  return [...longest].map(([id, list]) => {
    const [process, metric] = id.split("\u0000") as [string, SeriesVerdict["metric"]];
    return { process, metric, ...judgeGrowth(list, warmUpUntil, GROWTH_LIMITS[metric]) };
  }).sort((a, b) => a.process.localeCompare(b.process) || a.metric.localeCompare(b.metric));
}
