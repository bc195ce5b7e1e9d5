/**
 * The shards-per-namespace measurement's last steps, on the namespace the
 * run has placed and let settle: one executor is lost (the pass that moves
 * its shards, timed from its start to the executors' answers), and the
 * instance's resident memory is followed over a long steady window.
 *
 * @module
 */
import type { Fleet } from "../lib/fleet.ts";
import { memoryOf } from "../lib/proc.ts";
import type { LogLine, ServiceProcess } from "../lib/service.ts";
import { sleep, waitUntil } from "../lib/wait.ts";

/** The pass after an executor was lost. */
export interface LossFigures {
  /** Its planning and its fenced commit, ms ("assignment committed": `planMs`, `commitMs`). */
  readonly lossPlanMs: number;
  readonly lossCommitMs: number;
  /** The pass's start → the first heartbeat answer that gave another executor a lost shard, ms. */
  readonly lossFirstAnsweredMs: number;
  /** The pass's start → every lost shard held by another executor, ms. */
  readonly lossAllHeldMs: number;
}

/**
 * Silences `executorId` (its `shardsHeld` shards) and waits for the pass that
 * moves them (after the heartbeat TTL) and for the other executors to hold
 * them all. The pass's start is its log line's time less its plan and
 * commit; answers are timed by the fleet's processes (one machine, one clock).
 */
export async function loseOneExecutor(
  service: ServiceProcess,
  fleet: Fleet,
  executorId: string,
  shardsHeld: number,
  timeoutMs: number,
): Promise<LossFigures> {
  const pass = Promise.withResolvers<LogLine>();
  const stop = service.onLog((line) => {
    if (line.msg === "assignment committed" && Number(line.fields.lossMoves) > 0) {
      pass.resolve(line);
    }
  });
  try {
    if (await fleet.silence([executorId]) !== 1) {
      throw new Error(`${executorId} is not an executor of the fleet`);
    }
    const timer = setTimeout(
      () => pass.reject(new Error(`no pass moved the shards of ${executorId} in ${timeoutMs} ms`)),
      timeoutMs,
    );
    const line = await pass.promise.finally(() => clearTimeout(timer));
    const planMs = Number(line.fields.planMs);
    const commitMs = Number(line.fields.commitMs);
    const startedAt = line.ts - planMs - commitMs;
    let gains = await fleet.gains();
    await waitUntil(
      async () => (gains = await fleet.gains()).shards >= shardsHeld,
      timeoutMs,
      `the other executors holding the ${shardsHeld} shards of ${executorId}`,
      100,
    );
    return {
      lossPlanMs: planMs,
      lossCommitMs: commitMs,
      lossFirstAnsweredMs: gains.firstAtMs - startedAt,
      lossAllHeldMs: gains.lastAtMs - startedAt,
    };
  } finally {
    stop();
  }
}

/** Resident memory over a long steady window. */
export interface MemoryOverTime {
  /** RSS at its start and its end, and the largest seen, MiB. */
  readonly rssLongStartMiB: number;
  readonly rssLongEndMiB: number;
  readonly rssLongMaxMiB: number;
  /** The window's length, s. */
  readonly longWindowS: number;
}

/** Reads the instance's RSS every `everyMs` for `ms`. */
export async function memoryOverTime(
  service: ServiceProcess,
  ms: number,
  everyMs = 10_000,
): Promise<MemoryOverTime> {
  const started = performance.now();
  const first = (await memoryOf(service.pid)).rss;
  let last = first;
  let max = first;
  while (performance.now() - started < ms) {
    await sleep(Math.min(everyMs, ms - (performance.now() - started)));
    last = (await memoryOf(service.pid)).rss;
    max = Math.max(max, last);
  }
  const mib = (bytes: number) => bytes / 2 ** 20;
  return {
    rssLongStartMiB: mib(first),
    rssLongEndMiB: mib(last),
    rssLongMaxMiB: mib(max),
    longWindowS: (performance.now() - started) / 1000,
  };
}
