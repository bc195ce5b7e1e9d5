/**
 * The chaos checker: a pure function from a recording to the overlaps, the
 * ownership gaps and the rule violations in it.
 *
 * Rules:
 * 1. `overlap`: in an exclusive namespace, no two executors run one shard at
 *    the same instant. The one exception is a first owner that was frozen
 *    (SIGSTOP) when the second started, if the second holds a greater
 *    fencing token: downstream systems reject the frozen owner's writes.
 *    Overlaps in available namespaces are allowed and counted.
 * 2. `reassignment`: every shard that is not drained runs again within
 *    `boundMs` of losing its last processor, not counting time while etcd
 *    had no quorum.
 * 3. `drained-owned`: a drained shard runs nowhere from `boundMs` after its
 *    drain on.
 * 4. `needless-move`: no shard is taken from an executor whose heartbeats
 *    were being answered (`needless_moves.ts` has the exact rule); checked
 *    when `heartbeatWindowMs` is given.
 *
 * The fencing check (`fencing-stale`, `fencing-lost`) needs the fenced
 * store's final values and lives in `fencing.ts`.
 *
 * @module
 */
import type { ChaosEvent, NamespaceSpec } from "./events.ts";
import { findGaps, type Gap } from "./gaps.ts";
import { pauseWindows, quorumLossWindows, runIntervals, upTo } from "./intervals.ts";
import { judgeTakes, type NeedlessMove, type TakeVerdict } from "./needless_moves.ts";
import { findOverlaps, type Overlap } from "./overlaps.ts";

/** What {@linkcode check} checks. */
export interface CheckOptions {
  /** The namespaces, their ownership mode and shards. */
  readonly namespaces: readonly NamespaceSpec[];
  /** The reassignment bound (see `bounds.ts`). */
  readonly boundMs: number;
  /** Start of the checked period: every shard was owned by then. */
  readonly from: number;
  /** End of the checked period. */
  readonly until: number;
  /**
   * The `needless-move` rule: the longest time between two answered heartbeats of an executor
   * that still counts as answered throughout (e.g. 2 × the heartbeat
   * interval). Absent: that rule is not checked.
   */
  readonly heartbeatWindowMs?: number;
}

/** A broken rule. */
export interface Violation {
  readonly rule:
    | "overlap"
    | "reassignment"
    | "drained-owned"
    | "needless-move"
    | "fencing-stale"
    | "fencing-lost"
    | "persistence";
  readonly at: number;
  readonly namespace: string;
  readonly shard: string;
  readonly message: string;
}

/** An overlap, with the verdict of rule 1. */
export interface CheckedOverlap extends Overlap {
  /** Whether the namespace is exclusive. */
  readonly exclusive: boolean;
  /** Whether rule 1 allows it. */
  readonly allowed: boolean;
}

/** What {@linkcode check} found. */
export interface CheckResult {
  readonly overlaps: readonly CheckedOverlap[];
  readonly gaps: readonly Gap[];
  /** The `needless-move` findings (each is also a violation). */
  readonly needlessMoves: readonly NeedlessMove[];
  /** Every shard taken from an executor, counted by verdict (`needless` or why it is excused). */
  readonly takes: Readonly<Partial<Record<TakeVerdict, number>>>;
  readonly violations: readonly Violation[];
}

/**
 * Checks a recording against the rules above.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { check } from "./checker.ts";
 *
 * const base = { process: "p", executor: "e", namespace: "n", shard: "0" };
 * const result = check([{ type: "start", at: 0, token: "1", ...base }], {
 *   namespaces: [{ name: "n", ownership: "exclusive", shards: ["0"] }],
 *   boundMs: 1_000,
 *   from: 0,
 *   until: 5_000,
 * });
 * assert.equal(result.violations.length, 0);
 * ```
 */
export function check(events: readonly ChaosEvent[], options: CheckOptions): CheckResult {
  const { namespaces, boundMs, from, until } = options;
  if (!(boundMs > 0)) throw new RangeError(`boundMs must be positive, got ${boundMs}`);
  if (!(from <= until)) throw new RangeError(`from (${from}) must not be after until (${until})`);
  const ordered = upTo(events, until);
  const runs = runIntervals(ordered, until);
  const modes = new Map(namespaces.map((n) => [n.name, n.ownership]));
  const violations: Violation[] = [];

  const overlaps = findOverlaps(runs, pauseWindows(ordered, until)).map((o) => {
    const exclusive = modes.get(o.namespace) === "exclusive";
    const allowed = !exclusive || (o.ownerPaused && o.fenced);
    if (!allowed) {
      violations.push({
        rule: "overlap",
        at: o.from,
        namespace: o.namespace,
        shard: o.shard,
        message: `${o.executors[0]} and ${o.executors[1]} both ran shard ${o.shard} of ` +
          `${o.namespace} for ${o.ms} ms`,
      });
    }
    return { ...o, exclusive, allowed };
  });

  const drainedAt = new Map<string, number>();
  for (const e of ordered) {
    if (e.type !== "drain") continue;
    const key = `${e.namespace}\u0000${e.shard}`;
    if (!drainedAt.has(key)) drainedAt.set(key, e.at);
  }
  const quorumLoss = quorumLossWindows(ordered, until);
  const gaps: Gap[] = [];
  for (const ns of namespaces) {
    for (const shard of ns.shards) {
      const drain = drainedAt.get(`${ns.name}\u0000${shard}`);
      const to = Math.max(from, Math.min(until, drain ?? until));
      const scope = { namespace: ns.name, shard, from, to, toIsEnd: drain === undefined };
      for (const gap of findGaps(scope, runs, quorumLoss)) {
        gaps.push(gap);
        if (gap.ms > boundMs) {
          violations.push({
            rule: "reassignment",
            at: gap.countFrom + boundMs,
            namespace: ns.name,
            shard,
            message: `shard ${shard} of ${ns.name} ran nowhere for ${gap.ms} ms` +
              `${gap.open ? " (still unowned at the end)" : ""}, bound ${boundMs} ms`,
          });
        }
      }
      if (drain === undefined) continue;
      for (const run of runs) {
        if (run.namespace !== ns.name || run.shard !== shard || run.to <= drain + boundMs) continue;
        violations.push({
          rule: "drained-owned",
          at: Math.max(run.from, drain + boundMs),
          namespace: ns.name,
          shard,
          message: `drained shard ${shard} of ${ns.name} ran on ${run.executor} ` +
            `${Math.max(run.from, drain + boundMs) - drain} ms after its drain`,
        });
      }
    }
  }
  const { heartbeatWindowMs: windowMs } = options;
  const laggingAnswers = new Set(
    namespaces.filter((n) => n.ownership === "available").map((n) => n.name),
  );
  const judged = windowMs === undefined
    ? []
    : judgeTakes(ordered, { windowMs, from, until, laggingAnswers });
  const takes: Partial<Record<TakeVerdict, number>> = {};
  for (const t of judged) takes[t.verdict] = (takes[t.verdict] ?? 0) + 1;
  const needlessMoves = judged.filter((t): t is NeedlessMove => t.verdict === "needless");
  for (const m of needlessMoves) {
    violations.push({
      rule: "needless-move",
      at: m.at,
      namespace: m.namespace,
      shard: m.shard,
      message: `shard ${m.shard} of ${m.namespace} was taken from ${m.executor} although its ` +
        `heartbeats were answered (${m.at - m.previousAnswerAt} ms apart)`,
    });
  }
  violations.sort((a, b) => a.at - b.at);
  return { overlaps, gaps, needlessMoves, takes, violations };
}
