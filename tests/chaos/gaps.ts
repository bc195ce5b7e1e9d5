/**
 * Finds the times a shard had no running processor.
 *
 * @module
 */
import type { RunInterval, Window } from "./intervals.ts";

/**
 * A time `[from, to)` when no processor of a shard ran. `ms` counts from
 * `countFrom`: the gap's start, or the end of a quorum loss that overlapped
 * it (the bound does not run while etcd has no quorum). `open` when the
 * shard was still unowned at the end of the checked period.
 */
export interface Gap {
  readonly namespace: string;
  readonly shard: string;
  readonly from: number;
  readonly to: number;
  readonly countFrom: number;
  readonly ms: number;
  readonly open: boolean;
}

/** What {@linkcode findGaps} looks at. */
export interface GapScope {
  readonly namespace: string;
  readonly shard: string;
  /** Start of the checked period (all shards were owned then). */
  readonly from: number;
  /** End of the checked period: the end of the run, or when the shard was drained. */
  readonly to: number;
  /** Whether `to` is the end of the run (an unowned shard there is an open gap). */
  readonly toIsEnd: boolean;
}

/**
 * The gaps of one shard in `scope`, given the runs of its processors and
 * the quorum-loss windows.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { findGaps } from "./gaps.ts";
 *
 * const run = (from: number, to: number) =>
 *   ({ namespace: "n", shard: "1", executor: "e", process: "p", token: "1", from, to, open: false });
 * const scope = { namespace: "n", shard: "1", from: 0, to: 100, toIsEnd: true };
 * const gaps = findGaps(scope, [run(0, 40), run(55, 100)], []);
 * assert.equal(gaps.length, 1);
 * assert.equal(gaps[0]!.ms, 15);
 * ```
 */
export function findGaps(
  scope: GapScope,
  runs: readonly RunInterval[],
  quorumLoss: readonly Window[],
): Gap[] {
  const mine = runs
    .filter((r) => r.namespace === scope.namespace && r.shard === scope.shard)
    .filter((r) => r.to > scope.from && r.from < scope.to)
    .sort((a, b) => a.from - b.from);
  const gaps: Gap[] = [];
  let covered = scope.from;
  const emit = (from: number, to: number, open: boolean) => {
    if (to <= from) return;
    let countFrom = from;
    for (const w of quorumLoss) {
      if (w.from < to && w.to > from) countFrom = Math.max(countFrom, w.to);
    }
    const ms = Number.isFinite(countFrom) ? Math.max(0, to - countFrom) : 0;
    gaps.push({ namespace: scope.namespace, shard: scope.shard, from, to, countFrom, ms, open });
  };
  for (const run of mine) {
    if (run.from > covered) emit(covered, run.from, false);
    covered = Math.max(covered, run.to);
  }
  if (covered < scope.to) emit(covered, scope.to, scope.toIsEnd);
  return gaps;
}
