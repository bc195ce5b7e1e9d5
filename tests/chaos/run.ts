/**
 * One chaos run: start the cluster, wait until every shard runs, drain a few
 * shards, inject faults one at a time (checking after each), restart
 * everything, compare the durable state, check the whole recording, stop.
 *
 * @module
 */
import { reassignmentBoundMs } from "./bounds.ts";
import { check, type CheckResult, type Violation } from "./checker.ts";
import { ChaosCluster } from "./cluster.ts";
import { CHAOS_BOUND_TIMINGS, CHAOS_TIMINGS, chaosNamespaces } from "./config.ts";
import type { NamespaceSpec } from "./events.ts";
import { fencingAtEnd, type FencingResult, HEARTBEAT_WINDOW_MS } from "./moves_and_fencing.ts";
import { type MovesAndFencing, movesAndFencing } from "./moves_and_fencing.ts";
import type { NetworkMode } from "./cluster_network.ts";
import {
  describeTargets,
  FAULT_KINDS,
  type FaultEffects,
  type FaultKind,
  type FaultPlan,
  faultSchedule,
  NETWORK_FAULT_KINDS,
  runFault,
} from "./faults.ts";
import { ownerMoves } from "./owner_moves.ts";
import { faketimeLibrary } from "../support/faketime.ts";
import {
  compareDurableState,
  drainShards,
  type DurableState,
  readDurableState,
} from "./persistence.ts";
import { SeededRandom } from "./random.ts";
import { readStoredAssignments, type StoredAssignments } from "./stored_assignments.ts";
import { type Crash, Recorder } from "./recorder.ts";
import { type Percentiles, percentiles } from "./summary.ts";
import { spectatorMismatches } from "./spectator_view.ts";

/** How to run. */
export interface ChaosOptions {
  /** @default {a random 32-bit seed} */
  readonly seed?: number;
  /** Time for injecting faults, in ms (the run adds start-up and the final restart). @default {90000} */
  readonly durationMs?: number;
  /** Most faults to inject. @default {the number of kinds} one of each kind */
  readonly faults?: number;
  /** The kinds to inject. @default {FAULT_KINDS} */
  readonly kinds?: readonly FaultKind[];
  /** Mark one namespace `ownership: exclusive`. @default {true} */
  readonly exclusive?: boolean;
  /** Shards per namespace. @default {8} */
  readonly shards?: number;
  /** Where to write `results.json` and `events.jsonl`. @default {a new temporary dir} */
  readonly outDir?: string;
  /** Progress lines. @default {ignored} */
  readonly log?: (line: string) => void;
  /**
   * Where the processes run: network namespaces (`netns`, as root), loopback,
   * or namespaces where they can be made (`auto`; the kinds that need them are
   * skipped otherwise, with the reason in the report).
   * @default {"auto"}
   */
  readonly network?: NetworkMode;
}

/** A fault kind the run could not inject, and why. */
export interface SkippedKind {
  readonly kind: FaultKind;
  readonly reason: string;
}

/** One injected fault, as reported. */
export interface InjectedFault extends FaultPlan {
  readonly at: number;
  readonly target: string;
  /** How long after healing until every non-drained shard ran again. */
  readonly settledMs: number | null;
  readonly violationsAfter: number;
  /** Times a non-drained shard ran nowhere that overlap the fault (injection until settled). */
  readonly unowned: { readonly gaps: number; readonly longestMs: number };
  /** Shards the spectator saw taken from an owner, from the injection until settled. */
  readonly moves: readonly string[];
  /** Slow links: heartbeats each executor process reported failed, injection to settled. */
  readonly heartbeatFailures?: Readonly<Record<string, number>>;
  readonly effects?: FaultEffects;
}

/** Everything a run found. */
export interface ChaosReport {
  readonly seed: number;
  readonly startedAt: string;
  readonly wallMs: number;
  readonly options: { durationMs: number; faults: number; exclusive: boolean; shards: number };
  readonly namespaces: readonly NamespaceSpec[];
  readonly timings: typeof CHAOS_TIMINGS;
  readonly boundMs: number;
  readonly faults: readonly InjectedFault[];
  readonly faultCounts: Readonly<Record<string, number>>;
  /** Loopback or network namespaces (and why not namespaces, if they were wanted). */
  readonly network: { readonly mode: "netns" | "loopback"; readonly fallbackReason?: string };
  readonly skippedKinds: readonly SkippedKind[];
  readonly crashes: readonly Crash[];
  readonly harnessErrors: readonly string[];
  readonly reassignment: Percentiles;
  readonly overlaps: {
    readonly exclusive: number;
    readonly exclusiveAllowedFenced: number;
    readonly available: number;
    readonly availableMaxMs: number;
  };
  /** The needless-move and fencing checks (their violations are in `violations`). */
  readonly checks: MovesAndFencing;
  readonly violations: readonly Violation[];
  readonly persistence: PersistenceResult;
  readonly spectator: { readonly ownerEvents: number; readonly mismatchesAtEnd: number };
  readonly events: number;
  readonly outDir: string;
  readonly passed: boolean;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Calls `fn` with each instance's address in turn until one answers or `timeoutMs` passes. */
async function onAnyInstance<T>(
  cluster: ChaosCluster,
  fn: (address: string) => Promise<T>,
  timeoutMs = 30_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (let i = 0;; i++) {
    const address = cluster.serviceAddresses[i % cluster.serviceAddresses.length]!;
    try {
      return await fn(address);
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await sleep(200);
    }
  }
}

/** Runs the suite once; see the module doc. */
export async function runChaos(options: ChaosOptions = {}): Promise<ChaosReport> {
  const seed = options.seed ?? (crypto.getRandomValues(new Uint32Array(1))[0]!);
  const durationMs = options.durationMs ?? 90_000;
  const kinds = options.kinds ?? FAULT_KINDS;
  // Clock faults need libfaketime: without it a default run skips them and says so.
  const noClock = options.kinds !== undefined || faketimeLibrary() !== undefined
    ? []
    : kinds.filter((k) => k === "clock-step" || k === "clock-drift");
  const faultCount = options.faults ?? kinds.length;
  const exclusive = options.exclusive ?? true;
  const shards = options.shards ?? 8;
  const log = options.log ?? (() => {});
  const random = new SeededRandom(seed);
  const outDir = options.outDir ?? await Deno.makeTempDir({ prefix: `chaos-${seed}-` });
  await Deno.mkdir(outDir, { recursive: true });
  const started = Date.now();
  const recorder = new Recorder(`${outDir}/events.jsonl`);
  const namespaces = chaosNamespaces({ exclusive, shards });
  // An exclusive namespace's ownershipLease defaults to heartbeatTTL.
  const boundMs = reassignmentBoundMs({
    ...CHAOS_BOUND_TIMINGS,
    ...(exclusive ? { ownershipLeaseMs: CHAOS_BOUND_TIMINGS.heartbeatTTLMs } : {}),
  });
  const harnessErrors: string[] = [];
  const faults: InjectedFault[] = [];
  const drained = new Set<string>();
  const extraViolations: Violation[] = [];
  const persistence: PersistenceResult = { storedSeq: {}, problems: [], movedAfterRestart: [] };
  log(`chaos: seed ${seed}, ${faultCount} faults within ${durationMs} ms, bound ${boundMs} ms`);

  const cluster = await ChaosCluster.start({
    namespaces,
    recorder,
    dir: outDir,
    onCrash: (c) =>
      log(
        `  unexpected exit: ${c.process} code ${c.code}${c.known ? ` (${c.known})` : ""}\n    ${
          c.stderrTail.split("\n").slice(-12).join("\n    ")
        }`,
      ),
    onError: (message) => harnessErrors.push(message),
    network: options.network ?? "auto",
    steppableClocks: kinds.includes("clock-step") && noClock.length === 0,
  });
  const network = cluster.network;
  const netReason = network.fallbackReason ?? "the cluster runs on loopback (--network loopback)";
  const skippedKinds: SkippedKind[] = [
    ...noClock.map((kind) => ({ kind, reason: "libfaketime is not installed (Debian faketime)" })),
    ...(network.mode === "netns" ? [] : kinds
      .filter((k) => NETWORK_FAULT_KINDS.includes(k))
      .map((kind) => ({ kind, reason: netReason }))),
  ];
  const runnable = kinds.filter((k) => !skippedKinds.some((s) => s.kind === k));
  log(`chaos: network ${network.mode}${network.fallbackReason ? ` (${netReason})` : ""}`);
  for (const s of skippedKinds) log(`chaos: skipping ${s.kind}: ${s.reason}`);
  let from = Date.now();
  let result: CheckResult | undefined;
  let fencing: FencingResult | undefined;
  let mismatchesAtEnd = 0;
  const checkUntil = (until: number) =>
    check(recorder.events, {
      namespaces,
      boundMs,
      from,
      until,
      heartbeatWindowMs: HEARTBEAT_WINDOW_MS,
    });
  try {
    const settle = async (limitMs: number): Promise<number | null> => {
      const t0 = Date.now();
      while (Date.now() - t0 < limitMs) {
        if (recorder.unowned(namespaces, drained).length === 0) return Date.now() - t0;
        await sleep(100);
      }
      return null;
    };
    if (await settle(60_000) === null) {
      throw new Error(`Shards never all ran: ${recorder.unowned(namespaces, drained).join(", ")}`);
    }
    from = Date.now();
    log(`chaos: all ${namespaces.length * shards} shards run after ${from - started} ms`);
    for (const ns of namespaces) {
      const shard = ns.shards.at(-1)!;
      await onAnyInstance(cluster, (address) => drainShards(address, ns.name, [shard]));
      recorder.add({ type: "drain", at: Date.now(), namespace: ns.name, shard });
      drained.add(`${ns.name}/${shard}`);
    }

    const deadline = Date.now() + durationMs;
    const plans = runnable.length === 0
      ? []
      : faultSchedule(random, options.faults ?? runnable.length, 3, runnable);
    for (const [i, plan] of plans.entries()) {
      if (Date.now() >= deadline) break;
      const at = Date.now();
      let target = describeTargets(cluster, plan);
      let effects: FaultEffects = {};
      try {
        effects = await runFault(cluster, recorder, plan);
        target = effects.target ?? target;
      } catch (error) {
        harnessErrors.push(`fault #${i + 1} ${plan.kind} ${target}: ${error}`);
      }
      const settledMs = await settle(boundMs + 3_000);
      await sleep(500);
      const now = Date.now();
      const interim = checkUntil(now);
      const failed: Record<string, number> = {};
      for (const f of recorder.heartbeatFailures) {
        if (f.at >= at && f.at < now) failed[f.process] = (failed[f.process] ?? 0) + 1;
      }
      faults.push({
        ...plan,
        at,
        target,
        settledMs,
        violationsAfter: interim.violations.length,
        moves: ownerMoves(recorder.events, at, now, drained),
        unowned: gapsWithin(interim.gaps, at, now),
        ...(plan.kind === "slow-lossy-links" ? { heartbeatFailures: failed } : {}),
        ...(effects.links || effects.led ? { effects } : {}),
      });
      log(
        `  #${i + 1} ${plan.kind} ${target} held ${plan.holdMs} ms: ` +
          `${settledMs === null ? "NOT settled" : `settled +${settledMs} ms`}, ` +
          `violations so far ${interim.violations.length}`,
      );
      await sleep(random.int(200, 1_500));
    }

    await settle(boundMs + 3_000);
    await fullRestart(cluster, recorder, namespaces, persistence, log, outDir);
    extraViolations.push(...persistence.problems.map((message) => ({
      rule: "persistence" as const,
      at: Date.now(),
      namespace: "",
      shard: "",
      message,
    })));
    const after = await settle(boundMs + 3_000);
    if (after === null) log("  shards did not all run again after the full restart");
    await sleep(1_000);
    const until = Date.now();
    result = checkUntil(until);
    mismatchesAtEnd = spectatorMismatches(recorder.events, until);
    fencing = await fencingAtEnd(cluster, recorder.events, harnessErrors);
  } finally {
    await cluster.close().catch((error) => harnessErrors.push(`close: ${error}`));
    recorder.close();
  }
  const report = buildReport({
    mismatchesAtEnd,
    seed,
    started,
    durationMs,
    faultCount,
    exclusive,
    shards,
    namespaces,
    boundMs,
    faults,
    recorder,
    harnessErrors,
    result,
    fencing,
    extraViolations,
    persistence,
    outDir,
    network: {
      mode: network.mode,
      ...(network.fallbackReason === undefined ? {} : { fallbackReason: network.fallbackReason }),
    },
    skippedKinds,
  });
  await Deno.writeTextFile(`${outDir}/results.json`, JSON.stringify(report, null, 2) + "\n");
  return report;
}

/** The gaps overlapping `[from, until)`: how many, and the longest. */
function gapsWithin(gaps: CheckResult["gaps"], from: number, until: number) {
  const within = gaps.filter((g) => g.to > from && g.from < until);
  return { gaps: within.length, longestMs: Math.max(0, ...within.map((g) => g.ms)) };
}

/** What the full restart found. */
export interface PersistenceResult {
  before?: DurableState;
  after?: DurableState;
  /** The assignment log's last change per namespace before the restart. */
  storedSeq: Record<string, number>;
  /** Lost namespaces, drains or committed assignment changes: violations. */
  problems: string[];
  /** Shards a leader moved after the restart (a finding, not a violation). */
  movedAfterRestart: string[];
}

async function fullRestart(
  cluster: ChaosCluster,
  recorder: Recorder,
  namespaces: readonly NamespaceSpec[],
  persistence: PersistenceResult,
  log: (line: string) => void,
  outDir: string,
): Promise<void> {
  const names = namespaces.map((n) => n.name);
  const storePrefix = `${cluster.prefix}/store`;
  persistence.before = await onAnyInstance(cluster, (a) => readDurableState(a, names));
  const stored: Record<string, StoredAssignments> = {};
  for (const name of names) {
    stored[name] = await readStoredAssignments(cluster.etcd.endpoints, storePrefix, name);
    persistence.storedSeq[name] = stored[name].seq;
  }
  log("chaos: full restart of every etcd member and instance");
  const mark = (phase: "inject" | "heal") =>
    recorder.add({ type: "fault", at: Date.now(), kind: "full-restart", target: "all", phase });
  mark("inject");
  recorder.add({ type: "quorum", at: Date.now(), available: false });
  await Promise.all(cluster.services.map((s) => s.kill("SIGTERM", 5_000)));
  for (const member of cluster.etcd.members) await member.kill("SIGTERM");
  const [first, ...rest] = cluster.etcd.members;
  await first!.start({ wait: false });
  for (const member of rest) await member.start();
  await Promise.all(cluster.services.map((s) => s.running ? undefined : s.start()));
  // The outage lasts until the instances serve again, not only until etcd is back.
  recorder.add({ type: "quorum", at: Date.now(), available: true });
  mark("heal");
  try {
    persistence.after = await onAnyInstance(cluster, (a) => readDurableState(a, names));
  } catch (error) {
    persistence.problems.push(`state unreadable after the restart: ${error}`);
    return;
  }
  const diff = compareDurableState(persistence.before, persistence.after);
  persistence.problems.push(...diff.problems);
  persistence.movedAfterRestart.push(...diff.moved);
  for (const name of names) {
    const before = stored[name]!;
    try {
      const after = await readStoredAssignments(
        cluster.etcd.endpoints,
        storePrefix,
        name,
        before.seq,
      );
      const lost = Object.keys({ ...before.owners, ...after.owners })
        .filter((shard) => before.owners[shard] !== after.owners[shard]);
      if (lost.length > 0) {
        persistence.problems.push(
          `stored assignments of ${name} up to change ${before.seq} differ after the restart: ` +
            lost.map((s) => `${s}: ${before.owners[s] ?? "-"} -> ${after.owners[s] ?? "-"}`)
              .join(", "),
        );
      }
    } catch (error) {
      persistence.problems.push(`stored assignments of ${name} unreadable: ${error}`);
    }
  }
  if (persistence.problems.length > 0 || persistence.movedAfterRestart.length > 0) {
    await dumpAssignments(cluster, names, outDir);
  }
}

/** Saves each namespace's stored assignment keys (`etcdctl get --prefix`) for a post-mortem. */
async function dumpAssignments(cluster: ChaosCluster, names: readonly string[], outDir: string) {
  for (const name of names) {
    try {
      const output = await new Deno.Command("etcdctl", {
        args: [
          `--endpoints=${cluster.etcd.endpoints.join(",")}`,
          "get",
          "--prefix",
          `${cluster.prefix}/store/ns/${name}/`,
        ],
        env: { ETCDCTL_API: "3" },
        stdout: "piped",
        stderr: "piped",
      }).output();
      const text = new TextDecoder().decode(output.stdout) +
        new TextDecoder().decode(output.stderr);
      await Deno.writeTextFile(`${outDir}/etcd-${name}.txt`, text);
    } catch { /* etcdctl missing: no dump */ }
  }
}

function buildReport(input: {
  mismatchesAtEnd: number;
  seed: number;
  started: number;
  durationMs: number;
  faultCount: number;
  exclusive: boolean;
  shards: number;
  namespaces: NamespaceSpec[];
  boundMs: number;
  faults: InjectedFault[];
  recorder: Recorder;
  harnessErrors: string[];
  result: CheckResult | undefined;
  fencing: FencingResult | undefined;
  extraViolations: Violation[];
  persistence: PersistenceResult;
  outDir: string;
  network: ChaosReport["network"];
  skippedKinds: SkippedKind[];
}): ChaosReport {
  const { result, recorder, faults } = input;
  const overlaps = result?.overlaps ?? [];
  const available = overlaps.filter((o) => !o.exclusive);
  const fenced = input.fencing?.violations ?? [];
  const violations = [...(result?.violations ?? []), ...fenced, ...input.extraViolations];
  const faultCounts: Record<string, number> = {};
  for (const f of faults) faultCounts[f.kind] = (faultCounts[f.kind] ?? 0) + 1;
  const ownerEvents = recorder.events.filter((e) => e.type === "owner").length;
  return {
    seed: input.seed,
    startedAt: new Date(input.started).toISOString(),
    wallMs: Date.now() - input.started,
    options: {
      durationMs: input.durationMs,
      faults: input.faultCount,
      exclusive: input.exclusive,
      shards: input.shards,
    },
    namespaces: input.namespaces,
    timings: CHAOS_TIMINGS,
    boundMs: input.boundMs,
    faults,
    faultCounts,
    network: input.network,
    skippedKinds: input.skippedKinds,
    crashes: recorder.crashes,
    harnessErrors: input.harnessErrors,
    reassignment: percentiles((result?.gaps ?? []).filter((g) => !g.open).map((g) => g.ms)),
    overlaps: {
      exclusive: overlaps.filter((o) => o.exclusive).length,
      exclusiveAllowedFenced: overlaps.filter((o) => o.exclusive && o.allowed).length,
      available: available.length,
      availableMaxMs: Math.max(0, ...available.map((o) => o.ms)),
    },
    checks: movesAndFencing(recorder.events, result, input.fencing),
    violations,
    persistence: input.persistence,
    spectator: {
      ownerEvents,
      mismatchesAtEnd: input.mismatchesAtEnd,
    },
    events: recorder.events.length,
    outDir: input.outDir,
    passed: result !== undefined && violations.length === 0 && input.harnessErrors.length === 0,
  };
}
