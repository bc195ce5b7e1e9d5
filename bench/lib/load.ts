/**
 * Closed-loop load from several worker processes at once, so the client side
 * is spread over processes; the rate is the sum, and the CPU each side used
 * during the run is measured from `/proc`.
 *
 * @module
 */
import type { UnaryLoadOptions } from "../workers/unary_load.ts";
import { cpuSecondsOf } from "./proc.ts";
import type { Scope } from "./scope.ts";
import { median } from "./stats.ts";
import { WorkerProcess } from "./worker_process.ts";

/** One measured run. */
export interface LoadRun {
  /** Calls answered per second, all workers together. */
  readonly rate: number;
  /** Calls answered. */
  readonly count: number;
  /** Calls failed. */
  readonly errors: number;
  /** One failure's message, if any. */
  readonly firstError: string | null;
  /** Median over workers of their p50 latency, ms. */
  readonly p50Ms: number;
  /** Largest p99 latency of a worker, ms. */
  readonly p99Ms: number;
  /** CPU used by the server processes, in cores. */
  readonly serverCores: number;
  /** CPU used by the load workers, in cores. */
  readonly clientCores: number;
}

/**
 * Starts `count` load workers (owned by `scope`) and waits until each is ready.
 *
 * @example
 * ```ts ignore
 * import { startLoadWorkers } from "./load.ts";
 * ```
 */
export async function startLoadWorkers(
  scope: Scope,
  count: number,
  options: (index: number) => UnaryLoadOptions,
): Promise<WorkerProcess[]> {
  const workers = Array.from(
    { length: count },
    (_, i) => scope.adopt(WorkerProcess.start("unary_load.ts", options(i), `load-${i}`)),
  );
  await Promise.all(workers.map((w) => w.next("ready")));
  return workers;
}

/** Runs every worker for `durationMs` at once; `serverPids` are measured for CPU. */
export async function runLoad(
  workers: readonly WorkerProcess[],
  durationMs: number,
  serverPids: readonly number[],
): Promise<LoadRun> {
  const pids = [...serverPids, ...workers.map((w) => w.pid)];
  const before = pids.map(cpuSecondsOf);
  const started = performance.now();
  const results = await Promise.all(
    workers.map((w) => w.request({ type: "run", durationMs }, "result", durationMs + 60_000)),
  );
  const seconds = (performance.now() - started) / 1000;
  const used = pids.map((pid, i) => (cpuSecondsOf(pid) - before[i]!) / seconds);
  const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
  const num = (m: Record<string, unknown>, k: string) => Number(m[k]);
  return {
    rate: sum(results.map((r) => num(r, "count") / num(r, "seconds"))),
    count: sum(results.map((r) => num(r, "count"))),
    errors: sum(results.map((r) => num(r, "errors"))),
    firstError: (results.find((r) => r.firstError)?.firstError as string | undefined) ?? null,
    p50Ms: median(results.map((r) => num(r, "p50Ms"))),
    p99Ms: Math.max(...results.map((r) => num(r, "p99Ms"))),
    serverCores: sum(used.slice(0, serverPids.length)),
    clientCores: sum(used.slice(serverPids.length)),
  };
}
