/**
 * Simulated executors that speak warm handover over real gRPC: they send
 * `warm_handover`, prepare each shard an answer lists as PREPARING (for
 * `prepareMs`, or never), report it PREPARED and serve it once it turns READY.
 * Every answer is kept, so a test can check what each executor was told.
 *
 * @module
 */
import type { HeartbeatRequest } from "../../src/wire/proto.ts";
import { type Clients, heartbeat } from "./grpc_clients.ts";

/** An assignment as an answer carried it. */
export interface Told {
  /** `READY`, `RELEASING` or `PREPARING`. */
  readonly status: string;
  /** Its fencing token. */
  readonly token: string;
}

/** A simulated warm executor. */
export interface WarmExecutor {
  /** Its id. */
  readonly id: string;
  /** The last answer's assignments by shard. */
  told: Map<string, Told>;
  /** Shards it serves (READY in the last answer, not releasing). */
  readonly serving: string[];
  /** Every (shard, status, token) it was ever told, in order, without repeats. */
  readonly history: { shard: string; status: string; token: string; atMs: number }[];
  /** Status it reports. */
  status: NonNullable<HeartbeatRequest["status"]>;
  /** Heartbeats answered. */
  beats: number;
  /** Stops heartbeating, as if it died. */
  stop(): Promise<void>;
}

/** Options of {@linkcode runWarmExecutor}. */
export interface WarmExecutorOptions {
  /** Time between heartbeats, ms. @default {200} */
  readonly intervalMs?: number;
  /** Time a prepare takes, ms; `Infinity`: it never finishes. @default {300} */
  readonly prepareMs?: number;
  /** Send `warm_handover`. @default {true} */
  readonly warm?: boolean;
}

/** Starts executor `id` heartbeating into `namespace`. */
export function runWarmExecutor(
  clients: Clients,
  namespace: string,
  id: string,
  options: WarmExecutorOptions = {},
): WarmExecutor {
  const interval = options.intervalMs ?? 200;
  const prepareMs = options.prepareMs ?? 300;
  const warm = options.warm ?? true;
  const preparedAt = new Map<string, number>();
  let stopped = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let inFlight: Promise<void> = Promise.resolve();
  let appliedRevision = "0";
  const executor: WarmExecutor = {
    id,
    told: new Map(),
    get serving() {
      return [...this.told].filter(([, t]) => t.status === "READY").map(([s]) => s).sort();
    },
    history: [],
    status: "EXECUTOR_STATUS_ACTIVE",
    beats: 0,
    stop() {
      stopped = true;
      clearTimeout(timer);
      return inFlight;
    },
  };
  const beatOnce = async () => {
    try {
      const now = performance.now();
      const reports: NonNullable<HeartbeatRequest["shardStatusReports"]> = {};
      for (const [shard, told] of executor.told) {
        if (told.status === "PREPARING") {
          if ((preparedAt.get(shard) ?? Infinity) <= now) {
            reports[shard] = { status: "SHARD_STATUS_PREPARED", shardLoad: 0 };
          }
        } else if (told.status === "READY") {
          reports[shard] = { status: "SHARD_STATUS_READY", shardLoad: 1 };
        } // RELEASING: stopped at once, no longer reported
      }
      const res = await heartbeat(clients, {
        namespace,
        executorId: id,
        status: executor.status,
        shardStatusReports: reports,
        metadata: { address: `${id}.example:1234` },
        ...(warm ? { warmHandover: true } : {}),
        appliedRevision,
      });
      // Exclusive namespaces: this answer is acted on before the next heartbeat.
      appliedRevision = String(res.revision ?? "0");
      if (stopped) return;
      const told = new Map<string, Told>();
      for (const [shard, a] of Object.entries(res.shardAssignments)) {
        const status = String(a.status).replace("ASSIGNMENT_STATUS_", "");
        const entry = { status, token: String(a.fencingToken) };
        told.set(shard, entry);
        const before = executor.told.get(shard);
        if (before?.status !== status || before.token !== entry.token) {
          executor.history.push({ shard, ...entry, atMs: Date.now() });
        }
        if (status === "PREPARING" && !preparedAt.has(shard)) {
          preparedAt.set(shard, performance.now() + prepareMs);
        }
      }
      for (const shard of preparedAt.keys()) {
        if (told.get(shard)?.status !== "PREPARING") preparedAt.delete(shard);
      }
      executor.told = told;
      executor.beats++;
    } catch { /* the service may be restarting; try again next beat */ }
  };
  const beat = () => {
    if (stopped) return;
    inFlight = beatOnce().then(() => {
      if (!stopped) timer = setTimeout(beat, interval);
    });
  };
  timer = setTimeout(beat, Math.random() * interval);
  return executor;
}
