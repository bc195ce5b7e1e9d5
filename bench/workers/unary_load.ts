/**
 * Worker: a closed-loop load generator for one unary method. `concurrency`
 * calls stay in flight, spread over `channels` connections.
 *
 * Kinds: `owner` asks `GetShardOwner` for random keys `0..shards-1`;
 * `heartbeat` sends heartbeats round-robin for executors
 * `<prefix>-<from..from+count-1>`, each reporting the shards its last answer
 * gave it (as a real executor does). With `target` "raw" or "proto" the same
 * requests go to the echo server's paths.
 *
 * Commands: `{type:"run", durationMs}` → `{type:"result", count, errors,
 * firstError, seconds, p50Ms, p99Ms}`.
 *
 * @module
 */
import { percentile } from "../lib/stats.ts";
import {
  atPath,
  ECHO_PATHS,
  getShardOwnerMethod,
  type grpc,
  heartbeatMethod,
  type Method,
  openClient,
  type Target,
  unary,
} from "../lib/wire.ts";
import type { HeartbeatResponse__Output } from "../../src/wire/proto.ts";
import { emit, serveCommands, workerOptions } from "./_protocol.ts";

/** Options of the worker. */
export interface UnaryLoadOptions {
  /** Server address. */
  readonly address: string;
  /** Which method. */
  readonly kind: "owner" | "heartbeat";
  /** The service, or one of the echo server's codecs. */
  readonly target: Target;
  /** Connections. */
  readonly channels: number;
  /** Calls in flight. */
  readonly concurrency: number;
  /** Namespace. */
  readonly namespace: string;
  /** Shard keys to ask for (owner). */
  readonly shards: number;
  /** Executors to heartbeat for (heartbeat). */
  readonly executors: { readonly prefix: string; readonly from: number; readonly count: number };
}

const options = workerOptions<UnaryLoadOptions>();
const clients: grpc.Client[] = Array.from(
  { length: options.channels },
  () => openClient(options.address),
);
const base = options.kind === "owner" ? getShardOwnerMethod : heartbeatMethod;
const method: Method = options.target === "service"
  ? base
  : atPath(base, ECHO_PATHS[options.target][options.kind === "owner" ? "owner" : "heartbeat"]);

type Reports = Record<string, { status: string; shardLoad: number }>;
const reports = new Map<string, Reports>();
let nextExecutor = 0;

function request(): { body: unknown; executorId?: string } {
  if (options.kind === "owner") {
    const key = String(Math.floor(Math.random() * options.shards));
    return { body: { namespace: options.namespace, shardKey: key } };
  }
  const { prefix, from, count } = options.executors;
  const executorId = `${prefix}-${from + (nextExecutor++ % count)}`;
  return {
    executorId,
    body: {
      namespace: options.namespace,
      executorId,
      status: "EXECUTOR_STATUS_ACTIVE",
      shardStatusReports: reports.get(executorId) ?? {},
      metadata: { address: `${executorId}.example:1234` },
    },
  };
}

function remember(executorId: string, answer: HeartbeatResponse__Output): void {
  const keys = Object.keys(answer.shardAssignments);
  const known = reports.get(executorId);
  if (known && Object.keys(known).length === keys.length && keys.every((k) => k in known)) return;
  const next: Reports = {};
  for (const key of keys) next[key] = { status: "SHARD_STATUS_READY", shardLoad: 1 };
  reports.set(executorId, next);
}

async function run(durationMs: number): Promise<void> {
  const latencies: number[] = [];
  let errors = 0;
  let firstError: string | undefined;
  const started = performance.now();
  const until = started + durationMs;
  let client = 0;
  const loop = async () => {
    while (performance.now() < until) {
      const { body, executorId } = request();
      const sent = performance.now();
      try {
        const answer = await unary<HeartbeatResponse__Output>(
          clients[client++ % clients.length]!,
          method,
          body,
          10_000,
        );
        latencies.push(performance.now() - sent);
        if (executorId !== undefined) remember(executorId, answer);
      } catch (error) {
        errors++;
        firstError ??= error instanceof Error ? error.message : String(error);
      }
    }
  };
  await Promise.all(Array.from({ length: options.concurrency }, loop));
  const seconds = (performance.now() - started) / 1000;
  emit({
    type: "result",
    count: latencies.length,
    errors,
    firstError: firstError ?? null,
    seconds,
    p50Ms: percentile(latencies, 50),
    p99Ms: percentile(latencies, 99),
  });
}

serveCommands(async (command) => {
  if (command.type === "run") await run(Number(command.durationMs));
});
emit({ type: "ready" });
