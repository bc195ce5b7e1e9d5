/**
 * The needless-move and fencing checks as a chaos run uses them: the
 * heartbeat window, the end-of-run read of the fenced store, and what the
 * report says about both.
 *
 * @module
 */
import type { CheckResult } from "./checker.ts";
import { CHAOS_TIMINGS } from "./config.ts";
import type { ChaosEvent } from "./events.ts";
import { readFenceFinals } from "./fence_store.ts";
import { checkFencing, type FencingResult } from "./fencing.ts";

export type { FencingResult } from "./fencing.ts";

/** Answers (and sends) at most two heartbeat intervals apart count as answered throughout. */
export const HEARTBEAT_WINDOW_MS = 2 * CHAOS_TIMINGS.heartbeatIntervalMs;

/** What a chaos report says about the two checks (their violations are with the others). */
export interface MovesAndFencing {
  /** Shards taken from executors whose heartbeats were answered (`needless-move` violations). */
  readonly needlessMoves: number;
  /** Every shard taken from an executor, by verdict (`needless` or why it is excused). */
  readonly shardTakes: Readonly<Record<string, number>>;
  /** The executors' heartbeats as they recorded them. */
  readonly heartbeats: { readonly answered: number; readonly failed: number };
  /** The processors' writes through their fencing tokens. */
  readonly fencing: { readonly writes: number; readonly rejected: number; readonly shards: number };
}

/**
 * Reads the fenced store once and checks every recorded write against it;
 * a store that cannot be read is a harness error (pushed to `errors`).
 */
export async function fencingAtEnd(
  cluster: { readonly etcd: { readonly endpoints: string[] }; readonly fencePrefix: string },
  events: readonly ChaosEvent[],
  errors: string[],
): Promise<FencingResult | undefined> {
  try {
    const finals = await readFenceFinals(cluster.etcd.endpoints, cluster.fencePrefix);
    return checkFencing(events, finals.values, finals.readAt);
  } catch (error) {
    errors.push(`the fenced store could not be read: ${error}`);
    return undefined;
  }
}

/**
 * The report's figures of both checks.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { movesAndFencing } from "./moves_and_fencing.ts";
 *
 * const summary = movesAndFencing([], undefined, undefined);
 * assert.deepEqual(summary.heartbeats, { answered: 0, failed: 0 });
 * ```
 */
export function movesAndFencing(
  events: readonly ChaosEvent[],
  result: CheckResult | undefined,
  fencing: FencingResult | undefined,
): MovesAndFencing {
  const heartbeats = events.filter((e) => e.type === "heartbeat");
  const answered = heartbeats.filter((e) => e.ok).length;
  return {
    needlessMoves: result?.needlessMoves.length ?? 0,
    shardTakes: { ...result?.takes },
    heartbeats: { answered, failed: heartbeats.length - answered },
    fencing: {
      writes: fencing?.writes ?? 0,
      rejected: fencing?.rejected ?? 0,
      shards: fencing?.shards ?? 0,
    },
  };
}
