/**
 * Simulated executors for integration tests: they heartbeat over real gRPC
 * and remember the assignment each answer carried.
 *
 * @module
 */
import type { HeartbeatRequest } from "../../src/wire/proto.ts";
import { type Clients, heartbeat } from "./grpc_clients.ts";

/** A simulated executor. */
export interface SimExecutor {
  /** Its id. */
  readonly id: string;
  /** Shards in the last answer. */
  shards: string[];
  /** Reported status. */
  status: NonNullable<HeartbeatRequest["status"]>;
  /** Heartbeats answered. */
  beats: number;
  /** Times an answer carried a shard the previous answer did not (placements seen by it). */
  gained: number;
  /**
   * Stops heartbeating (as if it died). Resolves once no heartbeat of its is
   * in flight, so a client may then close without cutting a call short.
   */
  stop(): Promise<void>;
}

/** Options of {@linkcode runExecutors}. */
export interface RunExecutorsOptions {
  /** Time between heartbeats, ms. @default {300} */
  readonly intervalMs?: number;
  /** Metadata per executor. */
  readonly metadata?: (id: string) => Record<string, string>;
  /** Which client each executor uses (to spread them over instances); asked before every heartbeat. */
  readonly clientFor?: (index: number) => Clients;
}

/** Starts executors `ids` heartbeating into `namespace`. */
export function runExecutors(
  clients: Clients,
  namespace: string,
  ids: readonly string[],
  options: RunExecutorsOptions = {},
): SimExecutor[] {
  const interval = options.intervalMs ?? 300;
  return ids.map((id, index) => {
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let inFlight: Promise<void> = Promise.resolve();
    const executor: SimExecutor = {
      id,
      shards: [],
      status: "EXECUTOR_STATUS_ACTIVE",
      beats: 0,
      gained: 0,
      stop() {
        stopped = true;
        clearTimeout(timer);
        return inFlight;
      },
    };
    const beat = () => {
      if (!stopped) inFlight = beatOnce();
    };
    const beatOnce = async () => {
      try {
        const reports: NonNullable<HeartbeatRequest["shardStatusReports"]> = {};
        for (const shard of executor.shards) {
          reports[shard] = { status: "SHARD_STATUS_READY", shardLoad: 1 };
        }
        const client = options.clientFor?.(index) ?? clients;
        const res = await heartbeat(client, {
          namespace,
          executorId: id,
          status: executor.status,
          shardStatusReports: reports,
          metadata: options.metadata?.(id) ?? { address: `${id}.example:1234` },
        });
        if (!stopped) {
          const had = new Set(executor.shards);
          executor.shards = Object.keys(res.shardAssignments);
          for (const shard of executor.shards) if (!had.has(shard)) executor.gained++;
          executor.beats++;
        }
      } catch { /* the service may be restarting; try again next beat */ }
      if (!stopped) timer = setTimeout(beat, interval * (0.8 + 0.4 * Math.random()));
    };
    timer = setTimeout(beat, Math.random() * interval);
    return executor;
  });
}

/** Polls `check` until it returns true or `timeoutMs` passes; returns the elapsed ms. `what` (or what it returns) names the condition in the timeout error. */
export async function eventually(
  check: () => boolean | Promise<boolean>,
  timeoutMs: number,
  what: string | (() => string) = "condition",
): Promise<number> {
  const start = performance.now();
  const fail = (how: string) => {
    const described = typeof what === "function" ? what() : what;
    return new Error(`Timed out after ${timeoutMs} ms waiting for ${described}${how}`);
  };
  for (;;) {
    // A check that never returns (a call without a deadline) fails the test, not hangs it;
    // a slow one gets 15 s past the timeout.
    const left = Math.max(timeoutMs - (performance.now() - start), 0) + 15_000;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<"late">((resolve) => timer = setTimeout(() => resolve("late"), left));
    const ok = await Promise.race([Promise.resolve(check()), late]).finally(() =>
      clearTimeout(timer)
    );
    if (ok === "late") throw fail(` (the last check did not return within ${Math.round(left)} ms)`);
    if (ok) return performance.now() - start;
    if (performance.now() - start > timeoutMs) throw fail("");
    await new Promise((r) => setTimeout(r, 25));
  }
}
