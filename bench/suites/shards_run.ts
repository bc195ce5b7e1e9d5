/**
 * One run of the shards-per-namespace measurement: register the executors
 * under an operator drain, wait until nothing moves, lift the drain, time the
 * assignment, then watch the steady state.
 *
 * @module
 */
import { type Cluster, startCluster, storePrefix } from "../lib/cluster.ts";
import { CommitLog } from "../lib/commit_log.ts";
import { Fleet, ownershipProblem } from "../lib/fleet.ts";
import { HeapSampler, type HeapSite } from "../lib/heap_profile.ts";
import { isLeadershipLoss } from "../lib/leaders.ts";
import { cpuSecondsOf, memoryOf } from "../lib/proc.ts";
import { scrape, sumMetric } from "../lib/prom.ts";
import type { SuiteContext } from "../lib/result.ts";
import { logToFile, type ServiceProcess } from "../lib/service.ts";
import { sleep, waitUntil } from "../lib/wait.ts";
import { Control } from "../lib/control.ts";
import { untilQuiet } from "../lib/quiet.ts";
import { Spectators } from "../lib/spectators.ts";
import { loseOneExecutor, memoryOverTime } from "./shards_loss.ts";

const SELECTOR = { bench: "hold" };

/** What one run measured. */
export interface ShardsRun {
  /** Assignment commits while every executor was under the drain. */
  readonly drainedCommits: number;
  /** Lift → first commit seen on an etcd watch, s. */
  readonly commitS: number;
  /** Lift → `sm_shards_owned` = all, s. */
  readonly servedS: number;
  /** Lift → the executors hold every shard exactly once, s (NaN if not within 120 s). */
  readonly heldS: number;
  /** RSS and peak RSS, MiB. */
  readonly rssMiB: number;
  readonly peakMiB: number;
  /** RSS at the end of the steady window, MiB. */
  readonly rssSteadyEndMiB: number;
  /** V8 heap used and committed, external memory, MiB. */
  readonly heapUsedMiB: number;
  readonly heapTotalMiB: number;
  readonly externalMiB: number;
  /** Steady window: CPU cores, passes per second, mean pass ms. */
  readonly steadyCores: number;
  readonly passesPerS: number;
  readonly passMs: number;
  /** Steady window: heartbeat p99 (ms), largest heartbeat lag (s), stale executors at its end. */
  readonly heartbeatP99Ms: number;
  readonly lagS: number;
  readonly stale: number;
  /** Held → the last pass of the report wave, s; heartbeat p99 (ms) and largest lag (s) meanwhile. */
  readonly waveS: number;
  readonly waveHeartbeatP99Ms: number;
  readonly waveLagS: number;
  /** After the steady window: a new spectator's stream opened → its first whole picture decoded, s. */
  readonly spectatorFirstS: number;
  /** The same stream opened → that picture's last byte received (before the spectator decodes it), s. */
  readonly spectatorReceivedS: number;
  /** Times the instance stopped leading during the whole run. */
  readonly leadershipLosses: number;
  /** After the spectator: one executor lost, and the pass that moves its shards (LossFigures). */
  readonly lossPlanMs: number;
  readonly lossCommitMs: number;
  readonly lossFirstAnsweredMs: number;
  readonly lossAllHeldMs: number;
  /** Runs with a long window only: RSS over it (MemoryOverTime). */
  readonly rssLongStartMiB?: number;
  readonly rssLongEndMiB?: number;
  readonly rssLongMaxMiB?: number;
  readonly longWindowS?: number;
  /** Profiled runs only: RSS after a forced full GC, live memory by allocation site. */
  readonly rssAfterGcMiB?: number;
  readonly heapSites?: readonly HeapSite[];
}

/** Options for a profiled run. */
export interface ProfileOptions {
  /** `--cpu-prof` into this directory. */
  readonly cpuProfDir?: string;
  /** Sample the heap over `--inspect` on this port. */
  readonly inspectPort?: number;
  /** Follow RSS for this long at the end of the run, ms. @default {0} */
  readonly longWindowMs?: number;
  /** The namespace's heartbeat TTL, ms. @default {six heartbeat intervals} */
  readonly heartbeatTtlMs?: number;
}

/** The namespace's heartbeat TTL: six heartbeat intervals. */
function ttlMs(intervalMs: number): number {
  return 6 * intervalMs;
}

async function metric(service: ServiceProcess, name: string, labels = {}): Promise<number> {
  return sumMetric(await scrape(service.httpAddress), name, labels);
}

/** The measured instance died during a run. */
export class InstanceCrashedError extends Error {
  /** What the crash looked like. */
  readonly crash: string;
  /** Wraps the failure a crash caused. */
  constructor(crash: string, options?: ErrorOptions) {
    super(`The instance crashed: ${crash}`, options);
    this.crash = crash;
  }
}

/** Runs it once; a crash of the instance surfaces as {@linkcode InstanceCrashedError}. */
export async function shardsRun(
  ctx: SuiteContext,
  shards: number,
  executors: number,
  intervalMs: number,
  profile: ProfileOptions = {},
): Promise<ShardsRun> {
  const { longWindowMs: _, heartbeatTtlMs, ...clusterProfile } = profile;
  const ttl = heartbeatTtlMs ?? ttlMs(intervalMs);
  const cluster = await startCluster(ctx.scope, {
    namespaces: [{ name: "bench", type: "fixed", shardNum: shards }],
    process: { heartbeatTTL: `${ttl / 1000}s`, period: "1s" },
    ...clusterProfile,
  });
  const service = cluster.services[0]!;
  try {
    return await measure(ctx, cluster, shards, executors, intervalMs, {
      ...profile,
      heartbeatTtlMs: ttl,
    });
  } catch (error) {
    const crash = service.crash();
    throw crash === undefined ? error : new InstanceCrashedError(crash, { cause: error });
  }
}

async function measure(
  ctx: SuiteContext,
  cluster: Cluster,
  shards: number,
  executors: number,
  intervalMs: number,
  profile: ProfileOptions,
): Promise<ShardsRun> {
  const service = cluster.services[0]!;
  let losses = 0;
  service.onLog((line) => isLeadershipLoss(line) && losses++);
  await logToFile(ctx.scope, service, `${ctx.artifacts}/shards-service-${service.pid}.jsonl`);
  const control = await Control.start(ctx.scope, service.address);
  const log = ctx.scope.adopt(new CommitLog(cluster.endpoint, storePrefix(cluster.yaml), "bench"));
  await log.ready;
  await control.call("drainExecutors", { namespace: "bench", selector: SELECTOR });
  const fleet = await Fleet.start(ctx.scope, {
    addresses: [service.address],
    namespace: "bench",
    count: executors,
    intervalMs,
    processes: 2,
    metadata: SELECTOR,
  });
  const ns = { namespace: "bench" };
  await waitUntil(
    async () =>
      await metric(service, "sm_executors", { ...ns, state: "operator_drained" }) === executors,
    60_000,
    "registration",
    250,
  );
  // Nothing may be owned, and nothing committed for 2 s, before the clock starts.
  await waitUntil(
    async () => {
      const quiet = performance.timeOrigin + performance.now() - log.lastSeenAt > 2_000;
      return quiet && await metric(service, "sm_shards_owned", ns) === 0;
    },
    60_000,
    "a quiet namespace before lifting the drain",
    250,
  );
  const drainedCommits = log.seen;
  const sampler = profile.inspectPort ? await HeapSampler.start(profile.inspectPort) : undefined;
  log.clear();
  ctx.progress(`${executors} executors registered; lifting the drain`);
  const liftedWall = performance.timeOrigin + performance.now();
  const lifted = performance.now();
  await control.call("undrainExecutors", { namespace: "bench", selector: SELECTOR });
  const commit = await log.next(120_000);
  await waitUntil(
    async () => await metric(service, "sm_shards_owned", ns) === shards,
    120_000,
    "every shard owned",
    100,
  );
  const servedS = (performance.now() - lifted) / 1000;
  let heldS = NaN;
  await waitUntil(
    async () => {
      if ((await fleet.status()).held !== shards) return false;
      return ownershipProblem(await fleet.owners(), shards) === undefined;
    },
    120_000,
    "held",
    250,
  ).then(() => heldS = (performance.now() - lifted) / 1000, () => {});
  const wave = await reportWave(service, fleet, intervalMs);
  const memory = await memoryOf(service.pid);
  const memoryMetrics = await scrape(service.httpAddress);
  const steady = await steadyWindow(service, fleet, ctx.quick ? 3_000 : 20_000);
  const heapSites = await sampler?.stop();
  const afterGc = sampler ? await memoryOf(service.pid) : undefined;
  const { spectatorFirstS, spectatorReceivedS } = await firstPicture(ctx, service);
  const loss = await loseOneExecutor(
    service,
    fleet,
    "executor-0",
    shards / executors,
    (profile.heartbeatTtlMs ?? ttlMs(intervalMs)) + 60_000,
  );
  const long = profile.longWindowMs ? await memoryOverTime(service, profile.longWindowMs) : {};
  if (profile.cpuProfDir) await service.stop("SIGTERM");
  const mib = (name: string, labels?: Record<string, string>) =>
    sumMetric(memoryMetrics, name, labels) / 2 ** 20;
  return {
    drainedCommits,
    commitS: (commit.seenAt - liftedWall) / 1000,
    servedS,
    heldS,
    rssMiB: memory.rss / 2 ** 20,
    peakMiB: memory.peak / 2 ** 20,
    heapUsedMiB: mib("sm_process_heap_bytes", { state: "used" }),
    heapTotalMiB: mib("sm_process_heap_bytes", { state: "allocated" }),
    externalMiB: mib("sm_process_external_memory_bytes"),
    ...wave,
    ...steady,
    spectatorFirstS,
    spectatorReceivedS,
    ...loss,
    ...long,
    leadershipLosses: losses,
    ...(afterGc ? { rssAfterGcMiB: afterGc.rss / 2 ** 20 } : {}),
    ...(heapSites ? { heapSites } : {}),
  };
}

/**
 * From "held" until the namespace is quiet: each executor's next heartbeat
 * reports its new shards (a changed report, written and followed, and an input
 * of the next pass), then nothing changes. Quiet: no rebalance pass planned
 * for two heartbeat intervals, and at least one interval after "held" (every
 * executor has reported by then unless its heartbeats are late).
 */
async function reportWave(service: ServiceProcess, fleet: Fleet, intervalMs: number) {
  await fleet.status(); // starts a fresh latency window
  const wave = await untilQuiet(service, "bench", {
    quietMs: 2 * intervalMs,
    minMs: intervalMs,
    maxMs: 120_000,
  });
  return {
    waveS: wave.lastPassMs / 1000,
    waveHeartbeatP99Ms: (await fleet.status()).p99Ms,
    waveLagS: wave.lagS,
  };
}

/** CPU, passes, heartbeat latency and lag over `ms`, nothing changing. */
async function steadyWindow(service: ServiceProcess, fleet: Fleet, ms: number) {
  const ns = { namespace: "bench" };
  const read = async () => {
    const m = await scrape(service.httpAddress);
    return {
      cpu: cpuSecondsOf(service.pid),
      passes: sumMetric(m, "sm_rebalance_passes_total", ns),
      seconds: sumMetric(m, "sm_rebalance_pass_duration_seconds_sum", ns),
      count: sumMetric(m, "sm_rebalance_pass_duration_seconds_count", ns),
    };
  };
  await fleet.status(); // starts a fresh latency window
  const before = await read();
  const started = performance.now();
  let lagS = 0;
  while (performance.now() - started < ms) {
    await sleep(Math.min(2_000, ms));
    lagS = Math.max(lagS, await metric(service, "sm_heartbeat_lag_max_seconds", ns));
  }
  const after = await read();
  const elapsed = (performance.now() - started) / 1000;
  const memory = await memoryOf(service.pid);
  return {
    rssSteadyEndMiB: memory.rss / 2 ** 20,
    steadyCores: (after.cpu - before.cpu) / elapsed,
    passesPerS: (after.passes - before.passes) / elapsed,
    passMs: ((after.seconds - before.seconds) / Math.max(1, after.count - before.count)) * 1000,
    heartbeatP99Ms: (await fleet.status()).p99Ms,
    lagS,
    stale: await metric(service, "sm_executors", { ...ns, state: "stale" }),
  };
}

/** One spectator connects: stream opened → the whole picture received, and decoded, s. */
async function firstPicture(ctx: SuiteContext, service: ServiceProcess) {
  const spectator = await Spectators.start(ctx.scope, 1, {
    address: service.address,
    namespace: "bench",
    streams: 1,
    channels: 1,
    acceptDeltas: true,
  }, 60_000);
  return {
    spectatorFirstS: spectator.firstPictureMs[0]! / 1000,
    spectatorReceivedS: spectator.firstReceivedMs[0]! / 1000,
  };
}
