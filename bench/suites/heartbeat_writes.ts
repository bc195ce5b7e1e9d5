/**
 * Steady-state etcd writes caused by heartbeats: a fleet of simulated
 * executors heartbeating at a fixed interval, etcd's write counters read
 * before and after fixed windows.
 *
 * @module
 */
import { startCluster } from "../lib/cluster.ts";
import { Fleet } from "../lib/fleet.ts";
import { etcdWrites, scrape, sumMetric } from "../lib/prom.ts";
import type { SuiteContext } from "../lib/result.ts";
import type { ServiceProcess } from "../lib/service.ts";
import { sleep, waitUntil } from "../lib/wait.ts";

/** One measured window. */
export interface WriteWindow {
  /** Heartbeats the service answered. */
  readonly heartbeats: number;
  /** etcd Txn + Put + DeleteRange requests. */
  readonly writeRpcs: number;
  /** Keys etcd put. */
  readonly puts: number;
  /** Length, s. */
  readonly seconds: number;
}

/** A steady-state configuration. */
export interface SteadyConfig {
  /** Executors. */
  readonly executors: number;
  /** Their heartbeat interval. */
  readonly intervalMs: number;
  /** `heartbeatTTL`. */
  readonly ttl: string;
}

async function heartbeatsOf(service: ServiceProcess): Promise<number> {
  const samples = await scrape(service.httpAddress);
  return sumMetric(samples, "sm_grpc_requests_total", { method: "Heartbeat" });
}

/** Runs one configuration: placement, one more interval, then the windows. */
export async function steadyWrites(ctx: SuiteContext, config: SteadyConfig): Promise<{
  windows: WriteWindow[];
  method: string[];
  findings: string[];
}> {
  const shardNum = 10 * config.executors;
  const windows = ctx.quick ? 1 : 3;
  const windowMs = ctx.quick ? 5_000 : Math.max(30_000, 3 * config.intervalMs);
  const cluster = await startCluster(ctx.scope, {
    namespaces: [{ name: "bench", type: "fixed", shardNum }],
    process: { heartbeatTTL: config.ttl, period: "1s", maxMovesPerPass: shardNum },
  });
  const service = cluster.services[0]!;
  const fleet = await Fleet.start(ctx.scope, {
    addresses: [service.address],
    namespace: "bench",
    count: config.executors,
    intervalMs: config.intervalMs,
    processes: config.executors >= 5_000 ? 4 : 2,
  });
  let last = "";
  await waitUntil(
    async () => {
      const status = await fleet.status();
      last = `${status.held} shards held, ${status.errors} failures (${status.firstError})`;
      return status.held === shardNum;
    },
    120_000 + 5 * config.intervalMs,
    `placement of ${shardNum} shards`,
    500,
  ).catch((error) => {
    throw new Error(`${error.message}; last: ${last}`);
  });
  // One more interval: every executor reports its shards once (a reports write), then steady.
  await sleep(config.intervalMs + 1_000);
  await fleet.status();
  const out: WriteWindow[] = [];
  for (let w = 0; w < windows; w++) {
    const etcdBefore = await etcdWrites(cluster.endpoint);
    const beatsBefore = await heartbeatsOf(service);
    const started = performance.now();
    await sleep(windowMs);
    const etcdAfter = await etcdWrites(cluster.endpoint);
    const beatsAfter = await heartbeatsOf(service);
    out.push({
      heartbeats: beatsAfter - beatsBefore,
      writeRpcs: etcdAfter.writeRpcs - etcdBefore.writeRpcs,
      puts: etcdAfter.puts - etcdBefore.puts,
      seconds: (performance.now() - started) / 1000,
    });
  }
  const health = await fleet.status();
  return {
    windows: out,
    method: [
      "Steady state: simulated executors (several per worker process, raw gRPC) heartbeat at " +
      "a fixed interval (±10% jitter), each reporting its 10 shards; after placement and one " +
      `more interval, ${windows} window(s) of ${windowMs / 1000} s each. etcd write requests = ` +
      "the change of `grpc_server_handled_total` for Txn + Put + DeleteRange on etcd's " +
      "`/metrics`; puts = `etcd_mvcc_put_total`; heartbeats = the service's " +
      '`sm_grpc_requests_total{method="Heartbeat"}`. Everything the service wrote in the ' +
      "window counts, not only liveness records.",
    ],
    findings: [
      `heartbeat p50 ${health.p50Ms.toFixed(1)} ms, p99 ${health.p99Ms.toFixed(1)} ms, ` +
      `${health.errors} failed, longest silence ${Math.round(health.maxAgeMs)} ms during the ` +
      "last window.",
    ],
  };
}
