/**
 * Simulated executors spread over several worker processes
 * (`bench/workers/executor_fleet.ts`), driven as one fleet.
 *
 * @module
 */
import type { ExecutorFleetOptions } from "../workers/executor_fleet.ts";
import type { Scope } from "./scope.ts";
import { WorkerProcess } from "./worker_process.ts";

/** The fleet's health, summed over its processes. */
export interface FleetStatus {
  /** Executors simulated. */
  readonly executors: number;
  /** Shards held, as the last heartbeat answers say (a shard held twice counts twice). */
  readonly held: number;
  /** Successful heartbeats so far. */
  readonly beats: number;
  /** Failed heartbeats since the previous status. */
  readonly errors: number;
  /** One failure's message. */
  readonly firstError: string | null;
  /** Longest any executor has gone without a successful heartbeat, ms. */
  readonly maxAgeMs: number;
  /** Highest per-process p99 heartbeat latency since the previous status, ms. */
  readonly p99Ms: number;
  /** Median per-process p50 heartbeat latency since the previous status, ms. */
  readonly p50Ms: number;
}

/** Options of {@linkcode Fleet.start}. */
export interface FleetOptions extends Omit<ExecutorFleetOptions, "from" | "count" | "prefix"> {
  /** Executors in all. */
  readonly count: number;
  /** Worker processes. @default {1} */
  readonly processes?: number;
  /** Id prefix. @default {"executor"} */
  readonly prefix?: string;
}

/** A running fleet. */
export class Fleet {
  readonly #workers: WorkerProcess[];

  private constructor(workers: WorkerProcess[]) {
    this.#workers = workers;
  }

  /**
   * Starts the fleet; executors `<prefix>-0..count-1` are split evenly over
   * the processes.
   *
   * @example
   * ```ts ignore
   * import { Fleet } from "./fleet.ts";
   * import type { Scope } from "./scope.ts";
   *
   * declare const scope: Scope;
   * const fleet = await Fleet.start(scope, {
   *   addresses: ["127.0.0.1:7943"], namespace: "bench", count: 1000, intervalMs: 1000, processes: 2,
   * });
   * ```
   */
  static async start(scope: Scope, options: FleetOptions): Promise<Fleet> {
    const processes = Math.max(1, Math.min(options.processes ?? 1, options.count));
    const workers: WorkerProcess[] = [];
    let from = 0;
    for (let p = 0; p < processes; p++) {
      const count = Math.floor(options.count / processes) + (p < options.count % processes ? 1 : 0);
      const { processes: _, count: __, ...rest } = options;
      const worker = WorkerProcess.start(
        "executor_fleet.ts",
        {
          ...rest,
          prefix: options.prefix ?? "executor",
          from,
          count,
        } satisfies ExecutorFleetOptions,
        `executors-${p}`,
      );
      workers.push(scope.adopt(worker));
      from += count;
    }
    await Promise.all(workers.map((w) => w.next("ready")));
    return new Fleet(workers);
  }

  /** Process ids of the workers. */
  get pids(): number[] {
    return this.#workers.map((w) => w.pid);
  }

  /** The fleet's health now. */
  async status(): Promise<FleetStatus> {
    const parts = await Promise.all(
      this.#workers.map((w) => w.request({ type: "status" }, "status")),
    );
    const sum = (k: string) => parts.reduce((total, p) => total + Number(p[k]), 0);
    const p50s = parts.map((p) => Number(p.p50Ms)).filter(Number.isFinite).sort((a, b) => a - b);
    return {
      executors: sum("executors"),
      held: sum("held"),
      beats: sum("beats"),
      errors: sum("errors"),
      firstError: (parts.find((p) => p.firstError)?.firstError as string | undefined) ?? null,
      maxAgeMs: Math.max(...parts.map((p) => Number(p.maxAgeMs))),
      p99Ms: maxOf(parts.map((p) => Number(p.p99Ms))),
      p50Ms: p50s[Math.floor(p50s.length / 2)] ?? NaN,
    };
  }

  /** Every executor's shards, as its last answer said. */
  async owners(): Promise<Map<string, string[]>> {
    const parts = await Promise.all(
      this.#workers.map((w) => w.request({ type: "dump" }, "dump", 120_000)),
    );
    const owners = new Map<string, string[]>();
    for (const part of parts) {
      for (const [id, shards] of Object.entries(part.owners as Record<string, string[]>)) {
        owners.set(id, shards);
      }
    }
    return owners;
  }

  /**
   * Stops the heartbeats of the executors `ids`, as if they were lost; from
   * now on {@linkcode Fleet.gains} counts the shards the others are given.
   */
  async silence(ids: readonly string[]): Promise<number> {
    const parts = await Promise.all(
      this.#workers.map((w) => w.request({ type: "silence", ids }, "silenced")),
    );
    return parts.reduce((n, p) => n + Number(p.count), 0);
  }

  /**
   * Shards the executors' answers added since the last
   * {@linkcode Fleet.silence}, and when (wall clock, ms) the first and the
   * last such answer arrived; NaN when none did.
   */
  async gains(): Promise<{ shards: number; firstAtMs: number; lastAtMs: number }> {
    const parts = await Promise.all(
      this.#workers.map((w) => w.request({ type: "gains" }, "gains")),
    );
    const times = (k: string) => parts.map((p) => p[k]).filter((t) => typeof t === "number");
    const first = times("firstAtMs") as number[];
    const last = times("lastAtMs") as number[];
    return {
      shards: parts.reduce((n, p) => n + Number(p.shards), 0),
      firstAtMs: first.length === 0 ? NaN : Math.min(...first),
      lastAtMs: last.length === 0 ? NaN : Math.max(...last),
    };
  }

  /** Stops every heartbeat (the processes stay up). */
  async stopBeating(): Promise<void> {
    await Promise.all(this.#workers.map((w) => w.request({ type: "stop" }, "stopped")));
  }

  /** Kills every worker process at once with `signal`. */
  kill(signal: Deno.Signal = "SIGKILL"): void {
    for (const w of this.#workers) w.signal(signal);
  }
}

function maxOf(values: readonly number[]): number {
  const finite = values.filter(Number.isFinite);
  return finite.length === 0 ? NaN : Math.max(...finite);
}

/**
 * Checks that `owners` holds every shard `0..shardNum-1` exactly once;
 * returns a description of what is wrong, or undefined.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { ownershipProblem } from "./fleet.ts";
 *
 * assert.equal(ownershipProblem(new Map([["a", ["0"]], ["b", ["1"]]]), 2), undefined);
 * assert.notEqual(ownershipProblem(new Map([["a", ["0"]], ["b", ["0"]]]), 2), undefined);
 * ```
 */
export function ownershipProblem(
  owners: ReadonlyMap<string, readonly string[]>,
  shardNum: number,
): string | undefined {
  const seen = new Uint8Array(shardNum);
  let duplicates = 0;
  let strange = 0;
  for (const shards of owners.values()) {
    for (const key of shards) {
      const i = Number(key);
      if (!Number.isInteger(i) || i < 0 || i >= shardNum) strange++;
      else if (seen[i]!++ > 0) duplicates++;
    }
  }
  const missing = seen.reduce((n, x) => n + (x === 0 ? 1 : 0), 0);
  if (missing + duplicates + strange === 0) return undefined;
  return `${missing} shards unowned, ${duplicates} owned twice, ${strange} unknown keys`;
}
