/**
 * Drives the churn suite's executor fleet (`bench/workers/churn_fleet.ts`):
 * join, drain and leave by id, and read the placements its executors saw.
 *
 * @module
 */
import type { Scope } from "./scope.ts";
import { sleep } from "./wait.ts";
import { WorkerProcess } from "./worker_process.ts";

/** What the fleet's answers say now. */
export interface ChurnCounts {
  /** Times a shard appeared on an executor that did not have it, since the start. */
  readonly gained: number;
  /** Shards held, summed over executors. */
  readonly held: number;
  /** Distinct shards held. */
  readonly unique: number;
  /** Shards held by each executor still running. */
  readonly heldBy: Readonly<Record<string, number>>;
}

/** The fleet of one scenario. */
export class ChurnFleet {
  readonly #worker: WorkerProcess;

  private constructor(worker: WorkerProcess) {
    this.#worker = worker;
  }

  /** Starts an empty fleet heartbeating into `namespace` at `addresses` every `intervalMs`. */
  static async start(
    scope: Scope,
    addresses: readonly string[],
    namespace: string,
    intervalMs = 1_000,
  ): Promise<ChurnFleet> {
    const worker = scope.adopt(
      WorkerProcess.start("churn_fleet.ts", { addresses, namespace, intervalMs }, "churn-fleet"),
    );
    await worker.next("ready");
    return new ChurnFleet(worker);
  }

  /** Starts executors `ids`, their first beats spread over `overMs`. */
  async join(ids: readonly string[], overMs = 0): Promise<void> {
    await this.#worker.request({ type: "join", ids, overMs }, "ok");
  }

  /** They report DRAINING from their next beat. */
  async drain(ids: readonly string[]): Promise<void> {
    await this.#worker.request({ type: "drain", ids }, "ok");
  }

  /** They stop beating for good. */
  async leave(ids: readonly string[]): Promise<void> {
    await this.#worker.request({ type: "leave", ids }, "ok");
  }

  /** Loads of 1 ± 10% per report (`on`), or 1. */
  async noise(on: boolean): Promise<void> {
    await this.#worker.request({ type: "noise", on }, "ok");
  }

  /** The counts now. */
  async counts(): Promise<ChurnCounts> {
    const m = await this.#worker.request({ type: "counts" }, "counts");
    return {
      gained: Number(m.gained),
      held: Number(m.held),
      unique: Number(m.unique),
      heldBy: m.heldBy as Record<string, number>,
    };
  }

  /**
   * Waits until all `shards` are held and nothing was gained for `quietMs`;
   * returns the counts then and when all shards were first held (ms after
   * the call), or throws after `timeoutMs`.
   */
  async settle(
    shards: number,
    quietMs: number,
    timeoutMs: number,
  ): Promise<{ counts: ChurnCounts; allOwnedMs: number; minUnique: number; elapsedMs: number }> {
    const started = performance.now();
    let allOwnedMs = NaN;
    let minUnique = Infinity;
    let last = await this.counts();
    let quietSince = performance.now();
    while (true) {
      await sleep(250);
      const now = await this.counts();
      const t = performance.now();
      minUnique = Math.min(minUnique, now.unique);
      if (Number.isNaN(allOwnedMs) && now.unique === shards) allOwnedMs = t - started;
      if (now.gained !== last.gained || now.unique !== shards) quietSince = t;
      last = now;
      if (now.unique === shards && t - quietSince >= quietMs) {
        return { counts: now, allOwnedMs, minUnique, elapsedMs: t - started };
      }
      if (t - started > timeoutMs) {
        throw new Error(
          `Fleet did not settle in ${timeoutMs} ms: ${now.unique}/${shards} held, ` +
            `${now.gained} gained`,
        );
      }
    }
  }
}

/** Executor ids `<prefix>-<from>..<from+count-1>`. */
export function ids(prefix: string, count: number, from = 0): string[] {
  return Array.from({ length: count }, (_, i) => `${prefix}-${from + i}`);
}
