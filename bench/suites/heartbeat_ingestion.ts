/**
 * 7. Heartbeat ingestion: heartbeats per second one instance sustains, as a
 * ratio to a bare `@grpc/grpc-js` server answering the same calls; and etcd
 * write requests per heartbeat in steady state at 1,000 and 10,000 executors.
 *
 * @module
 */
import { type Cluster, startCluster } from "../lib/cluster.ts";
import { profileEvidence } from "../lib/cpu_profile.ts";
import { runLoad, startLoadWorkers } from "../lib/load.ts";
import {
  compareWithEcho,
  comparisonFigures,
  comparisonFindings,
  ECHO_METHOD,
} from "../lib/echo_compare.ts";
import type { Target } from "../lib/wire.ts";
import type { Figure, Suite, SuiteContext, SuiteOutput } from "../lib/result.ts";
import type { Scope } from "../lib/scope.ts";
import type { UnaryLoadOptions } from "../workers/unary_load.ts";
import { steadyWrites, type WriteWindow } from "./heartbeat_writes.ts";

/** The suite. */
export const heartbeatIngestion: Suite = {
  name: "heartbeat",
  title: "7. Heartbeat ingestion",
  run,
};

/** Load processes of the full-speed measurement. */
export const LOADERS = 2;
const CONCURRENCY = 100;

/**
 * The `i`-th load process's share of the full-speed measurement: `executors`
 * split evenly over {@linkcode LOADERS} processes, heartbeating to `target`.
 */
export function heartbeatLoad(
  address: string,
  target: Target,
  executors: number,
  i: number,
): UnaryLoadOptions {
  const each = executors / LOADERS;
  return {
    address,
    kind: "heartbeat",
    target,
    channels: 2,
    concurrency: CONCURRENCY,
    namespace: "bench",
    shards: 0,
    executors: { prefix: "executor", from: i * each, count: each },
  };
}

/** The cluster the full-speed measurement runs against: namespace `bench`, 10 shards per executor. */
export function startHeartbeatCluster(scope: Scope, executors: number): Promise<Cluster> {
  return startCluster(scope, {
    namespaces: [{ name: "bench", type: "fixed", shardNum: 10 * executors }],
    process: { heartbeatTTL: "60s", period: "1s", maxMovesPerPass: 10 * executors },
  });
}

async function throughput(ctx: SuiteContext) {
  const executors = ctx.quick ? 1_000 : 10_000;
  const rounds = ctx.quick ? 1 : 3;
  const durationMs = ctx.quick ? 1_500 : 5_000;
  const cluster = await startHeartbeatCluster(ctx.scope, executors);
  const service = cluster.services[0]!;
  ctx.progress(`${executors} executors register and take their shards (warm-up)`);
  const comparison = await compareWithEcho(ctx, {
    address: service.address,
    pid: service.pid,
    loaders: LOADERS,
    load: (address, target, i) => heartbeatLoad(address, target, executors, i),
    rounds,
    durationMs,
    warmMs: ctx.quick ? 2_000 : 15_000,
  });
  let evidence: string | undefined;
  if (ctx.profile) evidence = await profileHeartbeats(ctx, cluster, executors, durationMs);
  return { executors, rounds, durationMs, comparison, evidence };
}

async function profileHeartbeats(
  ctx: SuiteContext,
  cluster: Cluster,
  executors: number,
  durationMs: number,
): Promise<string> {
  ctx.progress("profiling an instance under heartbeat load (--cpu-prof)");
  const dir = `${ctx.artifacts}/heartbeat-profile`;
  await Deno.mkdir(dir, { recursive: true });
  const profiled = await cluster.startInstance("bench-profiled", { cpuProfDir: dir });
  const load = await startLoadWorkers(
    ctx.scope,
    LOADERS,
    (i) => heartbeatLoad(profiled.address, "service", executors, i),
  );
  await runLoad(load, 2 * durationMs, [profiled.pid]);
  for (const w of load) await w.stop();
  await profiled.stop("SIGTERM");
  return `Hottest functions of an instance ingesting heartbeats at full speed (self time, ` +
    `${dir}): ${await profileEvidence(dir)}.`;
}

function writeFigures(label: string, windows: readonly WriteWindow[], target: boolean): Figure[] {
  return [
    {
      label: `${label}: etcd write requests per heartbeat`,
      unit: "",
      digits: 3,
      samples: windows.map((w) => w.writeRpcs / w.heartbeats),
      ...(target ? { target: { op: "<=", value: 0.05, text: "≤ 0.05" } as const } : {}),
    },
    {
      label: `${label}: keys put per heartbeat`,
      unit: "",
      digits: 3,
      samples: windows.map((w) => w.puts / w.heartbeats),
    },
    {
      label: `${label}: heartbeats per second`,
      unit: "/s",
      samples: windows.map((w) => w.heartbeats / w.seconds),
    },
  ];
}

async function run(ctx: SuiteContext): Promise<SuiteOutput> {
  const t = await throughput(ctx);
  await ctx.scope.close();
  const configs = ctx.quick ? [{ executors: 1_000, intervalMs: 1_000, ttl: "5s", target: true }] : [
    { executors: 1_000, intervalMs: 10_000, ttl: "60s", target: true },
    { executors: 10_000, intervalMs: 10_000, ttl: "60s", target: true },
    { executors: 1_000, intervalMs: 1_000, ttl: "2s", target: false },
  ];
  const figures: Figure[] = comparisonFigures(t.comparison, "Heartbeat", "/s");
  const findings = comparisonFindings(t.comparison, "Heartbeat");
  if (t.evidence) findings.push(t.evidence);
  const method = [
    `Full speed: ${t.executors.toLocaleString("en-US")} executors' heartbeats sent round-robin ` +
    `by ${LOADERS} worker processes × ${CONCURRENCY} in flight, each reporting the shards its ` +
    "last answer gave it (10 per executor), after a warm-up in which every executor " +
    `registered and took its shards; ${t.rounds} round(s) of ${t.durationMs / 1000} s runs.`,
    ECHO_METHOD,
  ];
  for (const config of configs) {
    const label = `${config.executors.toLocaleString("en-US")} executors, every ` +
      `${config.intervalMs / 1000} s, TTL ${config.ttl}`;
    ctx.progress(`steady writes: ${label}`);
    const result = await steadyWrites(ctx, config);
    await ctx.scope.close();
    figures.push(...writeFigures(label, result.windows, config.target));
    findings.push(...result.findings.map((f) => `${label}: ${f}`));
    method.push(...result.method);
  }
  return { figures, method: [...new Set(method)], findings };
}
