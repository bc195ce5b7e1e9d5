/**
 * Worker: simulated executors that join, drain and leave on command, and
 * count from their own heartbeat answers every time a shard appears on an
 * executor that did not have it (the churn suite's measure of moves).
 *
 * Commands:
 * - `{type:"join", ids, overMs}` → `{type:"ok"}`: executors start, their
 *   first beats spread evenly over `overMs`.
 * - `{type:"drain", ids}` / `{type:"leave", ids}` → `{type:"ok"}`: report
 *   DRAINING from the next beat / stop beating for good.
 * - `{type:"noise", on}` → `{type:"ok"}`: report loads of 1 ± 10%, drawn
 *   afresh every beat (otherwise 1).
 * - `{type:"counts"}` → `{type:"counts", gained, held, unique, beats, errors,
 *   heldBy}`.
 *
 * @module
 */
import { heartbeatMethod, openClient, unary } from "../lib/wire.ts";
import { emit, serveCommands, workerOptions } from "./_protocol.ts";

/** Options of the worker. */
export interface ChurnFleetOptions {
  /** Service addresses; executors are spread over them and fail over. */
  readonly addresses: readonly string[];
  /** Namespace. */
  readonly namespace: string;
  /** Time between heartbeats of one executor, ms (±10% jitter). */
  readonly intervalMs: number;
}

interface Sim {
  readonly id: string;
  readonly index: number;
  status: "EXECUTOR_STATUS_ACTIVE" | "EXECUTOR_STATUS_DRAINING";
  shards: Set<string>;
  gone: boolean;
  timer?: ReturnType<typeof setTimeout>;
}

const options = workerOptions<ChurnFleetOptions>();
const clients = options.addresses.map((address) => openClient(address));
const sims = new Map<string, Sim>();
let noise = false;
let gained = 0;
let beats = 0;
let errors = 0;

async function beat(sim: Sim): Promise<void> {
  if (sim.gone) return;
  const reports: Record<string, { status: string; shardLoad: number }> = {};
  for (const key of sim.shards) {
    reports[key] = {
      status: "SHARD_STATUS_READY",
      shardLoad: noise ? 0.9 + 0.2 * Math.random() : 1,
    };
  }
  const request = {
    namespace: options.namespace,
    executorId: sim.id,
    status: sim.status,
    shardStatusReports: reports,
    metadata: { address: `${sim.id}.example:1234` },
  };
  for (let attempt = 0; attempt < clients.length; attempt++) {
    try {
      const client = clients[(sim.index + attempt) % clients.length]!;
      const answer = await unary(client, heartbeatMethod, request, 10_000) as {
        shardAssignments: Record<string, unknown>;
      };
      if (sim.gone) return;
      beats++;
      const next = new Set(Object.keys(answer.shardAssignments));
      for (const key of next) if (!sim.shards.has(key)) gained++;
      sim.shards = next;
      break;
    } catch {
      errors++;
    }
  }
  if (!sim.gone) {
    sim.timer = setTimeout(() => beat(sim), options.intervalMs * (0.9 + 0.2 * Math.random()));
  }
}

serveCommands((command) => {
  const ids = (command.ids ?? []) as string[];
  switch (command.type) {
    case "join": {
      const overMs = Number(command.overMs ?? 0);
      ids.forEach((id, i) => {
        const sim: Sim = {
          id,
          index: sims.size,
          status: "EXECUTOR_STATUS_ACTIVE",
          shards: new Set(),
          gone: false,
        };
        sims.set(id, sim);
        const delay = ids.length > 1 ? (overMs * i) / (ids.length - 1) : 0;
        sim.timer = setTimeout(() => beat(sim), delay);
      });
      return emit({ type: "ok" });
    }
    case "drain":
      for (const id of ids) {
        const sim = sims.get(id);
        if (sim) sim.status = "EXECUTOR_STATUS_DRAINING";
      }
      return emit({ type: "ok" });
    case "leave":
      for (const id of ids) {
        const sim = sims.get(id);
        if (!sim) continue;
        sim.gone = true;
        clearTimeout(sim.timer);
        sims.delete(id);
      }
      return emit({ type: "ok" });
    case "noise":
      noise = Boolean(command.on);
      return emit({ type: "ok" });
    case "counts": {
      const unique = new Set<string>();
      let held = 0;
      const heldBy: Record<string, number> = {};
      for (const sim of sims.values()) {
        held += sim.shards.size;
        heldBy[sim.id] = sim.shards.size;
        for (const key of sim.shards) unique.add(key);
      }
      return emit({ type: "counts", gained, held, unique: unique.size, beats, errors, heldBy });
    }
  }
});
emit({ type: "ready" });
