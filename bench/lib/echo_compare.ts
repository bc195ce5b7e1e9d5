/**
 * The service against a bare `@grpc/grpc-js` server, measured in the same
 * run with the same load: rounds of raw echo, proto-codec echo and service,
 * one after the other.
 *
 * @module
 */
import type { UnaryLoadOptions } from "../workers/unary_load.ts";
import { type LoadRun, runLoad, startLoadWorkers } from "./load.ts";
import type { Figure, SuiteContext } from "./result.ts";
import type { Target } from "./wire.ts";
import { WorkerProcess } from "./worker_process.ts";

/** What {@linkcode compareWithEcho} measured, one run per round for each server. */
export interface Comparison {
  /** Echo server, raw bytes. */
  readonly raw: LoadRun[];
  /** Echo server, the service's proto codec. */
  readonly proto: LoadRun[];
  /** The service. */
  readonly service: LoadRun[];
}

/** Options of {@linkcode compareWithEcho}. */
export interface CompareOptions {
  /** The service's gRPC address. */
  readonly address: string;
  /** Its pid (for CPU). */
  readonly pid: number;
  /** Load worker processes per server. */
  readonly loaders: number;
  /** Options of load worker `i` against `address` for `target`. */
  readonly load: (address: string, target: Target, i: number) => UnaryLoadOptions;
  /** Rounds. */
  readonly rounds: number;
  /** Length of each run. */
  readonly durationMs: number;
  /** Warm-up of the service's load before the rounds. */
  readonly warmMs: number;
  /** Assignments in the echo server's heartbeat answer. */
  readonly echoShards?: number;
}

/**
 * Runs the rounds.
 *
 * @example
 * ```ts ignore
 * import { compareWithEcho } from "./echo_compare.ts";
 * ```
 */
export async function compareWithEcho(
  ctx: SuiteContext,
  options: CompareOptions,
): Promise<Comparison> {
  const echo = ctx.scope.adopt(
    WorkerProcess.start("echo_server.ts", { shards: options.echoShards ?? 10 }, "echo"),
  );
  const echoAddress = String((await echo.next("ready")).address);
  const start = (address: string, target: Target) =>
    startLoadWorkers(ctx.scope, options.loaders, (i) => options.load(address, target, i));
  const raw = await start(echoAddress, "raw");
  const proto = await start(echoAddress, "proto");
  const service = await start(options.address, "service");
  await runLoad(raw, 1_000, [echo.pid]);
  await runLoad(proto, 1_000, [echo.pid]);
  await runLoad(service, options.warmMs, [options.pid]);
  const out: Comparison = { raw: [], proto: [], service: [] };
  for (let i = 0; i < options.rounds; i++) {
    ctx.progress(
      `round ${i + 1}/${options.rounds}: echo (raw), echo (proto codec), service, ` +
        `${options.durationMs / 1000} s each`,
    );
    out.raw.push(await runLoad(raw, options.durationMs, [echo.pid]));
    out.proto.push(await runLoad(proto, options.durationMs, [echo.pid]));
    out.service.push(await runLoad(service, options.durationMs, [options.pid]));
  }
  for (const w of [...raw, ...proto, ...service]) await w.stop();
  await echo.stop();
  return out;
}

/** The comparison's figures: the ratio (with the target), then each rate and latency. */
export function comparisonFigures(c: Comparison, what: string, unit: string): Figure[] {
  const ratio = (base: LoadRun[]) => c.service.map((r, i) => r.rate / base[i]!.rate);
  return [
    {
      label: `${what} / echo with the proto codec`,
      unit: "×",
      digits: 2,
      samples: ratio(c.proto),
      target: { op: ">=", value: 0.8, text: "≥ 0.8" },
    },
    { label: `${what} / echo of raw bytes`, unit: "×", digits: 2, samples: ratio(c.raw) },
    { label: `${what}, one instance`, unit, samples: c.service.map((r) => r.rate) },
    { label: "echo with the proto codec", unit, samples: c.proto.map((r) => r.rate) },
    { label: "echo of raw bytes", unit, samples: c.raw.map((r) => r.rate) },
    { label: `${what} p50 latency`, unit: "ms", digits: 1, samples: c.service.map((r) => r.p50Ms) },
  ];
}

/** One line on CPU use and failures during the rounds. */
export function comparisonFindings(c: Comparison, what: string): string[] {
  const cores = (runs: LoadRun[]) =>
    runs.map((r) => `${r.serverCores.toFixed(2)} (clients ${r.clientCores.toFixed(2)})`).join(", ");
  const lines = [
    `CPU in cores by round, server (and its load workers): echo raw ${cores(c.raw)}; echo ` +
    `proto ${cores(c.proto)}; service ${cores(c.service)}.`,
  ];
  const failed = c.service.find((r) => r.errors > 0);
  if (failed) lines.push(`${what} calls failed: ${failed.errors} (${failed.firstError}).`);
  return lines;
}

/** The method text shared by both throughput suites. */
export const ECHO_METHOD: string =
  "Baselines: a bare `@grpc/grpc-js` server in its own process, answering every call with a " +
  'fixed message of the real method\'s shape, either as pre-encoded bytes ("raw": no ' +
  'protobuf work at all) or through the service\'s own proto-loader codec ("proto": decode ' +
  "the request, encode the answer). The target ratio is against the proto-codec echo, which " +
  "does everything a grpc-js server with this wire contract must do before any application " +
  "logic. The same load workers' settings and the same client-side decoding are used for all " +
  "three; each round runs raw echo, proto echo and the service one after the other.";
