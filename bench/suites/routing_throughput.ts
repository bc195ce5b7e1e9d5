/**
 * 6. Routing throughput: `GetShardOwner` answered by one instance, as a ratio
 * to a bare `@grpc/grpc-js` server measured in the same run with the same
 * clients; and the spectator SDK's in-process `ownerOf` lookups per second.
 *
 * @module
 */
import { startCluster } from "../lib/cluster.ts";
import { profileEvidence } from "../lib/cpu_profile.ts";
import { Fleet } from "../lib/fleet.ts";
import { runLoad, startLoadWorkers } from "../lib/load.ts";
import {
  compareWithEcho,
  comparisonFigures,
  comparisonFindings,
  ECHO_METHOD,
} from "../lib/echo_compare.ts";
import type { Target } from "../lib/wire.ts";
import { repeatMicro } from "../lib/micro.ts";
import type { Suite, SuiteContext, SuiteOutput } from "../lib/result.ts";
import { waitUntil } from "../lib/wait.ts";
import { LOOKUPS_PER_ITERATION } from "../lib/micro_sizes.ts";
import type { UnaryLoadOptions } from "../workers/unary_load.ts";

const SHARDS = 10_000;
const EXECUTORS = 100;
const LOADERS = 2;
const CONCURRENCY = 100;
const CHANNELS = 2;

/** The suite. */
export const routingThroughput: Suite = {
  name: "routing",
  title: "6. Routing throughput",
  run,
};

function loadOptions(address: string, target: Target): UnaryLoadOptions {
  return {
    address,
    kind: "owner",
    target,
    channels: CHANNELS,
    concurrency: CONCURRENCY,
    namespace: "bench",
    shards: SHARDS,
    executors: { prefix: "unused", from: 0, count: 1 },
  };
}

async function run(ctx: SuiteContext): Promise<SuiteOutput> {
  const rounds = ctx.quick ? 1 : 3;
  const durationMs = ctx.quick ? 1_500 : 5_000;
  const { scope } = ctx;
  ctx.progress(`etcd, one instance, ${EXECUTORS} executors on ${SHARDS} shards`);
  const cluster = await startCluster(scope, {
    namespaces: [{ name: "bench", type: "fixed", shardNum: SHARDS }],
    process: { heartbeatTTL: "10s", period: "1s" },
  });
  const service = cluster.services[0]!;
  const fleet = await Fleet.start(scope, {
    addresses: [service.address],
    namespace: "bench",
    count: EXECUTORS,
    intervalMs: 2_000,
  });
  await waitUntil(async () => (await fleet.status()).held === SHARDS, 60_000, "placement", 500);
  const comparison = await compareWithEcho(ctx, {
    address: service.address,
    pid: service.pid,
    loaders: LOADERS,
    load: (address, target) => loadOptions(address, target),
    rounds,
    durationMs,
    warmMs: 1_000,
  });
  const findings = comparisonFindings(comparison, "GetShardOwner");
  if (ctx.profile) findings.push(await profileRouting(ctx, cluster, durationMs));
  await fleet.stopBeating();

  ctx.progress("ownerOf micro-benchmark (deno bench bench/spectator_bench.ts)");
  const micro = await repeatMicro("spectator_bench.ts", ctx.quick ? 1 : 3);
  const lookups = (name: string) =>
    (micro.get(name) ?? []).map((ns) => LOOKUPS_PER_ITERATION / (ns / 1e9));

  return {
    figures: [
      ...comparisonFigures(comparison, "GetShardOwner", "req/s"),
      {
        label: "spectator ownerOf, keys held as strings",
        unit: "lookups/s",
        samples: lookups("ownerOf, keys held as strings"),
        target: { op: ">=", value: 5e6, text: "≥ 5 M/s" },
      },
      {
        label: "spectator ownerOf, key string built per lookup",
        unit: "lookups/s",
        samples: lookups("ownerOf, key string built per lookup"),
      },
    ],
    method: [
      `One instance on a fresh etcd; fixed namespace of ${SHARDS.toLocaleString("en-US")} shards ` +
      `held by ${EXECUTORS} simulated executors (heartbeat every 2 s).`,
      `Load: ${LOADERS} worker processes × ${CONCURRENCY} calls in flight over ${CHANNELS} ` +
      `connections each, random keys, closed loop; ${rounds} round(s) of ${durationMs / 1000} s ` +
      "runs after a warm-up.",
      ECHO_METHOD,
      "Two cores for everything: the server process and its load workers (and etcd, idle " +
      "here) share them; the CPU line under Findings shows how. Compare ratios, not absolute " +
      "rates, across machines.",
      `ownerOf: \`deno bench bench/spectator_bench.ts\`, 100,000 shards over 100 executors, ` +
      `${LOOKUPS_PER_ITERATION.toLocaleString("en-US")} lookups per iteration; one sample per ` +
      "`deno bench` run (its mean).",
    ],
    findings,
  };
}

async function profileRouting(
  ctx: SuiteContext,
  cluster: Awaited<ReturnType<typeof startCluster>>,
  durationMs: number,
): Promise<string> {
  ctx.progress("profiling an instance under GetShardOwner load (--cpu-prof)");
  const dir = `${ctx.artifacts}/routing-profile`;
  await Deno.mkdir(dir, { recursive: true });
  const profiled = await cluster.startInstance("bench-profiled", { cpuProfDir: dir });
  const load = await startLoadWorkers(
    ctx.scope,
    LOADERS,
    () => loadOptions(profiled.address, "service"),
  );
  const profiledRun = await runLoad(load, durationMs, [profiled.pid]);
  for (const w of load) await w.stop();
  await profiled.stop("SIGTERM");
  if (profiledRun.errors > 0) {
    return `The profiled run had ${profiledRun.errors} failed calls (${profiledRun.firstError}).`;
  }
  return `Hottest functions of an instance serving GetShardOwner (self time, ${dir}): ` +
    `${await profileEvidence(dir)}.`;
}
