/**
 * Watching spectators spread over worker processes
 * (`bench/workers/spectator_fleet.ts`), driven as one crowd.
 *
 * @module
 */
import type { SpectatorFleetOptions } from "../workers/spectator_fleet.ts";
import type { Scope } from "./scope.ts";
import { WorkerProcess } from "./worker_process.ts";

/** Spectators in several processes. */
export class Spectators {
  readonly #workers: WorkerProcess[];
  /** For every stream, ms from opening it to its first message (a whole picture), decoded. */
  readonly firstPictureMs: readonly number[];
  /** For every stream, ms from opening it to the last byte of that message, before decoding it. */
  readonly firstReceivedMs: readonly number[];

  private constructor(
    workers: WorkerProcess[],
    firstPictureMs: number[],
    firstReceivedMs: number[],
  ) {
    this.#workers = workers;
    this.firstPictureMs = firstPictureMs;
    this.firstReceivedMs = firstReceivedMs;
  }

  /**
   * Opens `streams` watch streams over `processes` processes and waits until
   * each has its first snapshot.
   *
   * @example
   * ```ts ignore
   * import { Spectators } from "./spectators.ts";
   * import type { Scope } from "./scope.ts";
   *
   * declare const scope: Scope;
   * const crowd = await Spectators.start(scope, 4, {
   *   address: "127.0.0.1:7943", namespace: "bench", streams: 1000, channels: 10, acceptDeltas: true,
   * });
   * ```
   */
  static async start(
    scope: Scope,
    processes: number,
    options: SpectatorFleetOptions,
    timeoutMs = 120_000,
  ): Promise<Spectators> {
    const workers = Array.from({ length: processes }, (_, p) => {
      const streams = Math.floor(options.streams / processes) +
        (p < options.streams % processes ? 1 : 0);
      return scope.adopt(
        WorkerProcess.start("spectator_fleet.ts", { ...options, streams }, `spectators-${p}`),
      );
    });
    const ready = await Promise.all(workers.map((w) => w.next("ready", timeoutMs)));
    return new Spectators(
      workers,
      ready.flatMap((r) => r.firstMs as number[]),
      ready.flatMap((r) => r.receivedMs as number[]),
    );
  }

  /** Process ids. */
  get pids(): number[] {
    return this.#workers.map((w) => w.pid);
  }

  /**
   * For every stream, when it first held `revision` (ms since the epoch; NaN
   * for a stream that did not within `timeoutMs`).
   */
  async reached(revision: number, timeoutMs: number): Promise<number[]> {
    const answers = await Promise.all(
      this.#workers.map((w) =>
        w.request({ type: "wait", revision, timeoutMs }, "reached", timeoutMs + 30_000)
      ),
    );
    return answers.flatMap((a) => (a.times as (number | null)[]).map((t) => t ?? NaN));
  }
}
