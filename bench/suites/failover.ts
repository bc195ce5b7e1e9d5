/**
 * 5. Failover: an executor killed until all its shards are owned by others;
 * a leading instance stopped with SIGTERM, and killed with SIGKILL, until the
 * new leader's first rebalance pass.
 *
 * @module
 */
import { type Cluster, startCluster } from "../lib/cluster.ts";
import { Fleet } from "../lib/fleet.ts";
import { findLeader, measureTakeover, type Takeover } from "../lib/leaders.ts";
import type { Figure, Suite, SuiteContext, SuiteOutput } from "../lib/result.ts";
import type { ServiceProcess } from "../lib/service.ts";
import { percentile } from "../lib/stats.ts";
import { sleep, waitUntil } from "../lib/wait.ts";
import { NamespaceWatch } from "../lib/watch.ts";

/** The suite. */
export const failover: Suite = {
  name: "failover",
  title: "5. Failover",
  run,
};

const SHARDS = 1_000;
const TTL_MS = 2_000;
const PERIOD_MS = 1_000;
const PROCESS = { heartbeatTTL: "2s", period: "1s", rebalanceCooldown: "100ms" };
const HEARTBEAT_MS = 1_000;

async function executorKills(ctx: SuiteContext, rounds: number): Promise<number[]> {
  const cluster = await startCluster(ctx.scope, {
    namespaces: [{ name: "bench", type: "fixed", shardNum: SHARDS }],
    process: PROCESS,
  });
  const address = cluster.services[0]!.address;
  const fleet = await Fleet.start(ctx.scope, {
    addresses: [address],
    namespace: "bench",
    count: 10,
    intervalMs: HEARTBEAT_MS,
  });
  const watch = new NamespaceWatch(address, "bench", true);
  ctx.scope.defer(() => watch.close());
  await waitUntil(() => watch.owners.size === SHARDS, 30_000, "placement");
  const samples: number[] = [];
  for (let round = 1; round <= rounds; round++) {
    ctx.progress(`executor kill ${round}/${rounds}`);
    const victim = await Fleet.start(ctx.scope, {
      addresses: [address],
      namespace: "bench",
      count: 1,
      intervalMs: HEARTBEAT_MS,
      prefix: `victim${round}`,
    });
    const id = `victim${round}-0`;
    await waitUntil(async () => (await victim.status()).held > 0, 30_000, `${id} holding shards`);
    await sleep(500 + Math.random() * HEARTBEAT_MS);
    const shards = watch.shardsOf(id);
    const killed = performance.timeOrigin + performance.now();
    victim.kill("SIGKILL");
    const moved = await watch.until(
      (w) => shards.every((s) => (w.owners.get(s) ?? id) !== id),
      TTL_MS + PERIOD_MS + 10_000,
    );
    samples.push(moved - killed);
  }
  await fleet.stopBeating();
  return samples;
}

type Signal = "SIGTERM" | "SIGKILL";

/** Rounds of leader failover in one cluster: `plan` lists the signal of each round. */
async function leaderFailovers(
  ctx: SuiteContext,
  plan: readonly Signal[],
  electionTtlMs: number,
): Promise<Map<Signal, Takeover[]>> {
  const cluster: Cluster = await startCluster(ctx.scope, {
    namespaces: [{ name: "bench", type: "fixed", shardNum: SHARDS }],
    process: PROCESS,
    instances: 2,
    electionTTL: `${electionTtlMs / 1000}s`,
    election: { leaderPeriod: "10m", maxRandomDelay: "1s", failedElectionCooldown: "1s" },
  });
  let live: ServiceProcess[] = [...cluster.services];
  // One executor process per instance: a grpc-js client in Deno can abort on the GOAWAY of
  // an instance stopping (an nghttp2 assertion), so executors never share a process with
  // connections to the instance about to stop.
  const fleets = new Map<ServiceProcess, Fleet>();
  const fleetFor = async (service: ServiceProcess) => {
    fleets.set(
      service,
      await Fleet.start(ctx.scope, {
        addresses: [service.address],
        namespace: "bench",
        count: 5,
        intervalMs: HEARTBEAT_MS,
        prefix: `executor-${service.instanceId}`,
      }),
    );
  };
  for (const s of live) await fleetFor(s);
  const held = async () => {
    let total = 0;
    for (const f of fleets.values()) total += (await f.status()).held;
    return total;
  };
  await waitUntil(async () => await held() === SHARDS, 30_000, "placement");
  const takeovers = new Map<Signal, Takeover[]>();
  for (const [i, signal] of plan.entries()) {
    const round = i + 1;
    ctx.progress(`leader failover ${round}/${plan.length}: ${signal}`);
    const leader = await findLeader(live, "bench");
    const successor = live.find((s) => s !== leader)!;
    // Let the successor finish its random campaign delay (maxRandomDelay 1 s).
    await sleep(1_500);
    const takeover = await measureTakeover(
      leader,
      successor,
      "bench",
      signal,
      electionTtlMs + 10_000,
    );
    takeovers.set(signal, [...(takeovers.get(signal) ?? []), takeover]);
    fleets.get(leader)?.kill();
    fleets.delete(leader);
    const replacement = await cluster.startInstance(`bench-${round}-${signal}`, {
      grpcAddress: leader.address,
    });
    await fleetFor(replacement);
    live = [successor, replacement];
  }
  return takeovers;
}

function slowest(samples: readonly number[]): number[] {
  return samples.length === 0 ? [] : [Math.max(...samples)];
}

function p(samples: readonly number[], q: number): number[] {
  return samples.length === 0 ? [] : [percentile(samples, q)];
}

async function run(ctx: SuiteContext): Promise<SuiteOutput> {
  const quick = ctx.quick;
  const electionTtlMs = quick ? 2_000 : 5_000;
  const kills = await executorKills(ctx, quick ? 1 : 20);
  await ctx.scope.close();
  const plan: Signal[] = [
    ...Array<Signal>(quick ? 1 : 10).fill("SIGTERM"),
    ...Array<Signal>(quick ? 1 : 6).fill("SIGKILL"),
  ];
  const takeovers = await leaderFailovers(ctx, plan, electionTtlMs);
  const terms = takeovers.get("SIGTERM") ?? [];
  const sigkills = takeovers.get("SIGKILL") ?? [];
  const executorTarget = TTL_MS + PERIOD_MS + 100;
  const killTarget = electionTtlMs + 1_000;
  const first = (t: Takeover[]) => t.map((x) => x.firstPassMs);
  const figures: Figure[] = [
    {
      label: `executor SIGKILL → its shards owned by others, p99 of ${kills.length}`,
      unit: "ms",
      samples: p(kills, 99),
      target: {
        op: "<",
        value: executorTarget,
        text: `< ${executorTarget} ms (TTL + period + 100)`,
      },
    },
    { label: "executor SIGKILL → shards owned by others, each kill", unit: "ms", samples: kills },
    {
      label: `leader SIGTERM → new leader's first pass, slowest of ${terms.length}`,
      unit: "ms",
      samples: slowest(first(terms)),
      target: { op: "<", value: 500, text: "< 500 ms" },
    },
    {
      label: "leader SIGTERM → new leader's first pass, each failover",
      unit: "ms",
      samples: first(terms),
    },
    {
      label: "leader SIGTERM → new leader elected (its log)",
      unit: "ms",
      samples: terms.map((t) => t.wonMs),
    },
    {
      label: `leader SIGKILL → new leader's first pass, slowest of ${sigkills.length}`,
      unit: "ms",
      samples: slowest(first(sigkills)),
      target: { op: "<", value: killTarget, text: `< ${killTarget} ms (electionTTL + 1 s)` },
    },
    {
      label: "leader SIGKILL → new leader's first pass, each failover",
      unit: "ms",
      samples: first(sigkills),
    },
    {
      label: "leader SIGKILL → new leader elected (its log)",
      unit: "ms",
      samples: sigkills.map((t) => t.wonMs),
    },
  ];
  const poll = Math.max(...[...terms, ...sigkills].map((t) => t.pollMs));
  return {
    figures,
    method: [
      `Fixed namespace of ${SHARDS} shards; heartbeatTTL ${TTL_MS} ms, period ${PERIOD_MS} ms, ` +
      `rebalanceCooldown 100 ms (the defaults); simulated executors heartbeat every ` +
      `${HEARTBEAT_MS} ms (the executor SDK's default).`,
      "Executor kill: a victim executor runs in its own process; once it holds shards and has " +
      "reported them, after a random 0.5–1.5 s, the process gets SIGKILL. The time runs from " +
      "the signal to the arrival, on a watch stream (deltas) in the driver, of the change that " +
      "leaves none of its shards with it. One sample per kill; the p99 row is over all kills.",
      `Leader failover: two instances, electionTTL ${electionTtlMs / 1000} s, leaderPeriod 10 ` +
      "min (no voluntary hand-over during a round), maxRandomDelay 1 s. The leader (from " +
      "`sm_namespace_leader`) gets the signal; 5 executors heartbeat to each instance, from " +
      "one process per instance; the time runs to the first poll of the other " +
      `instance's \`sm_rebalance_passes_total\` that shows a pass (polled about every ` +
      `${Math.round(poll)} ms, so figures are late by up to that). A replacement instance ` +
      "takes the stopped one's port before the next round.",
    ],
    findings: [],
  };
}
