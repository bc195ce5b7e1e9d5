/**
 * Finds instants at which two executors ran the same shard.
 *
 * @module
 */
import type { RunInterval, Window } from "./intervals.ts";

/** Two processors of one shard running at once, during `[from, to)`. */
export interface Overlap {
  readonly namespace: string;
  readonly shard: string;
  /** The executor that started first, then the other. */
  readonly executors: readonly [string, string];
  readonly from: number;
  readonly to: number;
  readonly ms: number;
  /** The first owner's process was paused (SIGSTOP) when the second started. */
  readonly ownerPaused: boolean;
  /** The second owner's fencing token is greater than the first's. */
  readonly fenced: boolean;
}

/**
 * Every pair of processors of the same shard in different executors whose
 * runs intersect for at least 1 ms. A stop and a start at the same
 * millisecond do not overlap.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { findOverlaps } from "./overlaps.ts";
 *
 * const run = (executor: string, from: number, to: number) =>
 *   ({ namespace: "n", shard: "1", executor, process: executor, token: "1", from, to, open: false });
 * assert.equal(findOverlaps([run("a", 0, 10), run("b", 10, 20)], new Map()).length, 0);
 * assert.equal(findOverlaps([run("a", 0, 11), run("b", 10, 20)], new Map()).length, 1);
 * ```
 */
export function findOverlaps(
  runs: readonly RunInterval[],
  pauses: ReadonlyMap<string, readonly Window[]>,
): Overlap[] {
  const byShard = new Map<string, RunInterval[]>();
  for (const run of runs) {
    const key = `${run.namespace}\u0000${run.shard}`;
    byShard.set(key, [...byShard.get(key) ?? [], run]);
  }
  const found: Overlap[] = [];
  for (const shardRuns of byShard.values()) {
    const sorted = [...shardRuns].sort((a, b) => a.from - b.from || a.to - b.to);
    for (let i = 0; i < sorted.length; i++) {
      const first = sorted[i]!;
      for (let j = i + 1; j < sorted.length && sorted[j]!.from < first.to; j++) {
        const second = sorted[j]!;
        if (second.executor === first.executor) continue;
        const from = second.from;
        const to = Math.min(first.to, second.to);
        if (to <= from) continue;
        const ownerPaused = (pauses.get(first.process) ?? []).some((w) =>
          w.from <= from && from < w.to
        );
        found.push({
          namespace: first.namespace,
          shard: first.shard,
          executors: [first.executor, second.executor],
          from,
          to,
          ms: to - from,
          ownerPaused,
          fenced: tokenGreater(second.token, first.token),
        });
      }
    }
  }
  return found.sort((a, b) => a.from - b.from);
}

function tokenGreater(a: string, b: string): boolean {
  try {
    return BigInt(a) > BigInt(b);
  } catch {
    return false;
  }
}
