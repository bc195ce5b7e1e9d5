/**
 * Worker: many simulated executors in one process, each heartbeating over raw
 * gRPC every `intervalMs` (first beats spread over one interval) and reporting
 * the shards its last answer gave it as READY.
 *
 * The fleet shares the machine's cores with the measured instance, so it
 * spends as little as a simulation can: a simulated executor encodes its
 * request once per shard set (its reports and metadata do not change
 * otherwise) and decodes an answer only when its bytes differ from the
 * previous answer's. The instance sees the same bytes a protobuf encoder of
 * the same request would send.
 *
 * Commands:
 * - `{type:"status"}` → `{type:"status", executors, held, beats, errors,
 *   firstError, maxAgeMs, p50Ms, p99Ms}`; latencies and errors since the
 *   previous status; `maxAgeMs` is the longest time any executor has gone
 *   without a successful heartbeat.
 * - `{type:"dump"}` → `{type:"dump", owners: {executorId: shardKeys[]}}`.
 * - `{type:"stop"}` → `{type:"stopped"}`: no more heartbeats.
 * - `{type:"silence", ids}` → `{type:"silenced", count}`: those executors (of
 *   this process) stop heartbeating, as if lost; from then on the others'
 *   gains are counted.
 * - `{type:"gains"}` → `{type:"gains", shards, firstAtMs, lastAtMs}`: shards
 *   the other executors' answers added since the last silence, and when (wall
 *   clock, ms) the first and the last such answer arrived (null if none).
 *
 * @module
 */
import { Buffer } from "node:buffer";
import type { HeartbeatResponse__Output } from "../../src/wire/proto.ts";
import { percentile } from "../lib/stats.ts";
import { heartbeatMethod, type Method, openClient, unary } from "../lib/wire.ts";
import { RawUnaryClient } from "../lib/raw_unary.ts";
import { frameMessage } from "../../src/transport/grpc/fast_path/unary_frame_reader.ts";
import { emit, serveCommands, workerOptions } from "./_protocol.ts";

/** Options of the worker. */
export interface ExecutorFleetOptions {
  /** Service addresses; executors are spread over them. */
  readonly addresses: readonly string[];
  /** Namespace. */
  readonly namespace: string;
  /** Executor ids: `<prefix>-<from+i>` for i < count. */
  readonly prefix: string;
  /** First index. */
  readonly from: number;
  /** How many executors. */
  readonly count: number;
  /** Time between heartbeats of one executor, ms (±10% jitter). */
  readonly intervalMs: number;
  /** Connections per address. @default {2} */
  readonly channels?: number;
  /** Extra metadata of every executor (besides `address`). @default {{}} */
  readonly metadata?: Readonly<Record<string, string>>;
  /**
   * The gRPC client: grpc-js's, or the lean `bench/lib/raw_unary.ts` (same
   * bytes on the wire, a fraction of the CPU per call). @default {"grpc-js"}
   */
  readonly client?: "grpc-js" | "raw";
}

interface Sim {
  readonly id: string;
  shards: string[];
  reports: Record<string, { status: string; shardLoad: number }>;
  /** The encoded request for `reports`. */
  request: Buffer;
  /** The last answer as received. */
  answer?: Buffer;
  lastOkMs: number;
  timer?: ReturnType<typeof setTimeout>;
}

const options = workerOptions<ExecutorFleetOptions>();
const raw = options.client === "raw";
const clients = options.addresses.flatMap((address) =>
  Array.from(
    { length: options.channels ?? 2 },
    () => raw ? new RawUnaryClient(address) : openClient(address),
  )
);
const started = performance.now();
/** `Heartbeat` with both ends left encoded: the request is sent as given, the answer kept as bytes. */
const rawHeartbeat: Method = {
  ...heartbeatMethod,
  requestSerialize: (bytes: unknown) => bytes as Buffer,
  // A copy: the message buffer may be a view of one the transport reuses.
  responseDeserialize: (bytes: Buffer) => Buffer.from(bytes),
};

/** The request as sent: framed for the raw client, the message for grpc-js. */
function encodeRequest(id: string, reports: Sim["reports"]): Buffer {
  const message = heartbeatMethod.requestSerialize({
    namespace: options.namespace,
    executorId: id,
    status: "EXECUTOR_STATUS_ACTIVE",
    shardStatusReports: reports,
    metadata: { ...options.metadata, address: `${id}.example:1234` },
  });
  return raw ? frameMessage(message) : message;
}

const sims: Sim[] = Array.from({ length: options.count }, (_, i) => ({
  id: `${options.prefix}-${options.from + i}`,
  shards: [],
  reports: {},
  request: encodeRequest(`${options.prefix}-${options.from + i}`, {}),
  lastOkMs: started,
}));
let stopped = false;
let beats = 0;
let errors = 0;
let firstError: string | null = null;
let latencies: number[] = [];
/** Shards gained since the last silence, and when the first and last gain arrived (wall clock). */
let gains: { shards: number; firstAtMs: number | null; lastAtMs: number | null } | undefined;

/** One heartbeat; on failure it tries once more through the next connection (another instance). */
async function send(sim: Sim, index: number): Promise<Buffer> {
  const through = (i: number) => {
    const client = clients[i % clients.length]!;
    return client instanceof RawUnaryClient
      ? client.call(heartbeatMethod.path, sim.request, 10_000)
      : unary<Buffer>(client, rawHeartbeat, sim.request, 10_000);
  };
  try {
    return await through(index);
  } catch (error) {
    if (options.addresses.length < 2) throw error;
    return await through(index + (options.channels ?? 2));
  }
}

/** Takes the shards of an answer that differs from the previous one. */
function take(sim: Sim, bytes: Buffer): void {
  if (sim.answer?.equals(bytes)) return;
  sim.answer = bytes;
  const answer = heartbeatMethod.responseDeserialize(bytes) as HeartbeatResponse__Output;
  const keys = Object.keys(answer.shardAssignments);
  if (keys.length !== sim.shards.length || keys.some((k) => !(k in sim.reports))) {
    const gained = keys.filter((k) => !(k in sim.reports)).length;
    if (gains && gained > 0) {
      gains.shards += gained;
      gains.lastAtMs = Date.now();
      gains.firstAtMs ??= gains.lastAtMs;
    }
    sim.shards = keys;
    sim.reports = {};
    for (const key of keys) sim.reports[key] = { status: "SHARD_STATUS_READY", shardLoad: 1 };
    sim.request = encodeRequest(sim.id, sim.reports);
  }
}

const silenced = new Set<string>();

async function beat(sim: Sim, index: number): Promise<void> {
  if (stopped || silenced.has(sim.id)) return;
  const sent = performance.now();
  try {
    const answer = await send(sim, index);
    const now = performance.now();
    latencies.push(now - sent);
    sim.lastOkMs = now;
    beats++;
    take(sim, answer);
  } catch (error) {
    errors++;
    firstError ??= error instanceof Error ? error.message : String(error);
  }
  if (!stopped && !silenced.has(sim.id)) {
    sim.timer = setTimeout(
      () => beat(sim, index),
      options.intervalMs * (0.9 + 0.2 * Math.random()),
    );
  }
}

sims.forEach((sim, i) => {
  sim.timer = setTimeout(() => beat(sim, i), Math.random() * options.intervalMs);
});

serveCommands((command) => {
  switch (command.type) {
    case "status": {
      const now = performance.now();
      let held = 0;
      let maxAgeMs = 0;
      for (const sim of sims) {
        held += sim.shards.length;
        maxAgeMs = Math.max(maxAgeMs, now - sim.lastOkMs);
      }
      emit({
        type: "status",
        executors: sims.length,
        held,
        beats,
        errors,
        firstError,
        maxAgeMs,
        p50Ms: percentile(latencies, 50),
        p99Ms: percentile(latencies, 99),
      });
      latencies = [];
      errors = 0;
      firstError = null;
      return;
    }
    case "dump":
      emit({ type: "dump", owners: Object.fromEntries(sims.map((s) => [s.id, s.shards])) });
      return;
    case "silence": {
      const ids = new Set(command.ids as string[]);
      let count = 0;
      for (const sim of sims) {
        if (!ids.has(sim.id)) continue;
        silenced.add(sim.id);
        clearTimeout(sim.timer);
        count++;
      }
      gains = { shards: 0, firstAtMs: null, lastAtMs: null };
      emit({ type: "silenced", count });
      return;
    }
    case "gains":
      emit({ type: "gains", ...(gains ?? { shards: 0, firstAtMs: null, lastAtMs: null }) });
      return;
    case "stop":
      stopped = true;
      for (const sim of sims) clearTimeout(sim.timer);
      emit({ type: "stopped" });
      return;
  }
});
emit({ type: "ready" });
