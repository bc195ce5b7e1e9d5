/**
 * Needless moves: shards the service took from an executor whose heartbeats
 * it kept answering. Judged from the executors' own heartbeat records
 * ({@linkcode HeartbeatEvent}), not from the service's view.
 *
 * The rule, per executor and namespace, over its answered heartbeats in the
 * order they were answered: a shard that answer k−1 gave the executor to run
 * and answer k does not (gone, or listed as releasing) was **taken** at
 * answer k. A take is **needless** unless one of these explains it:
 *
 * - **a gap**: answer k came more than `windowMs` after answer k−1, or
 *   heartbeat k was sent more than `windowMs` after heartbeat k−1 (some
 *   heartbeat in between failed, or none was sent: the service may well have
 *   lost sight of the executor). Both count: a process frozen after sending
 *   k−1 reads its answer only when it resumes, right before it sends k, so
 *   the answers are close while the service heard nothing for the whole
 *   freeze. In a namespace whose answers are not waited for (available
 *   ownership: an instance answers from the picture it has, which may not yet
 *   show a move the leader committed during the gap), a gap ending at any
 *   answer within `windowMs` before answer k excuses the take too: the first
 *   answer after a cut-off can still list the shards the leader moved while
 *   the executor was silent, and the next one takes them (CI's chaos run,
 *   `executor-cutoff` held 3.2 s against a 3 s TTL). Exclusive answers come
 *   from a picture at least as new as their own heartbeat's record, so there
 *   only answer k−1 counts;
 * - **the executor leaving**: heartbeat k−1 or k was sent with a status other
 *   than ACTIVE (DRAINING, DRAINED);
 * - **a drain**: the shard was drained (a `drain` event) at or before answer k;
 * - **a quarantine**: answer k lists the shard as quarantined;
 * - **balancing**: answer k still gives the executor at least one shard that
 *   answer k−1 gave it. The balancer moves some of an executor's shards and
 *   leaves it its share; an executor the service judged lost (stale) loses
 *   every shard at once. So a take that leaves the executor none of the
 *   shards it had is a loss of the executor, and with its heartbeats answered
 *   throughout, a needless one.
 *
 * Only takes at answers within `[from, until]` count.
 *
 * Not visible in the answers: an operator's drain of a whole executor (it
 * keeps heartbeating ACTIVE and loses every shard), which reads as needless;
 * the chaos run drains shards only.
 *
 * @module
 */
import type { ChaosEvent, HeartbeatEvent } from "./events.ts";

/** Why a take is excused, or `needless` when nothing excuses it (checked in this order). */
export type TakeVerdict = "gap" | "leaving" | "drain" | "quarantine" | "balancing" | "needless";

/** A shard an answer took from an executor, with the verdict of the rule. */
export interface Take {
  readonly at: number;
  readonly namespace: string;
  readonly shard: string;
  readonly executor: string;
  /** When the answer before (which still gave the shard) came. */
  readonly previousAnswerAt: number;
  readonly verdict: TakeVerdict;
}

/** A shard taken from an executor whose heartbeats were being answered. */
export type NeedlessMove = Take & { readonly verdict: "needless" };

/** What {@linkcode judgeTakes} and {@linkcode findNeedlessMoves} need. */
export interface NeedlessMoveOptions {
  /** Longest time between two answers (or two sends) that still counts as answered throughout. */
  readonly windowMs: number;
  readonly from: number;
  readonly until: number;
  /**
   * Namespaces answered without waiting for the picture to show the heartbeat's
   * own record (available ownership): a gap shortly before answer k−1 excuses
   * a take too (see the module doc). @default {none}
   */
  readonly laggingAnswers?: ReadonlySet<string>;
}

/**
 * Every take in a recording, with its verdict (see the module doc for the rule).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { judgeTakes } from "./needless_moves.ts";
 *
 * const hb = (at: number, assigned: string[]) => ({
 *   type: "heartbeat" as const, at, sentAt: at - 5, process: "p", executor: "e",
 *   namespace: "n", ok: true, assigned,
 * });
 * const takes = judgeTakes([hb(0, ["1", "2"]), hb(500, ["2"]), hb(3_000, [])], {
 *   windowMs: 1_000, from: 0, until: 10_000,
 * });
 * assert.deepEqual(takes.map((t) => `${t.shard}:${t.verdict}`), ["1:balancing", "2:gap"]);
 * ```
 */
export function judgeTakes(events: readonly ChaosEvent[], options: NeedlessMoveOptions): Take[] {
  const { windowMs, from, until, laggingAnswers = new Set<string>() } = options;
  if (!(windowMs > 0)) throw new RangeError(`windowMs must be positive, got ${windowMs}`);
  const drainedAt = new Map<string, number>();
  const answers = new Map<string, HeartbeatEvent[]>();
  for (const e of events) {
    if (e.type === "drain") {
      const key = `${e.namespace}\u0000${e.shard}`;
      drainedAt.set(key, Math.min(drainedAt.get(key) ?? Infinity, e.at));
    } else if (e.type === "heartbeat" && e.ok && e.at <= until) {
      const key = `${e.executor}\u0000${e.namespace}`;
      answers.set(key, [...answers.get(key) ?? [], e]);
    }
  }
  const takes: Take[] = [];
  for (const list of answers.values()) {
    list.sort((a, b) => a.at - b.at);
    for (let k = 1; k < list.length; k++) {
      const before = list[k - 1]!;
      const now = list[k]!;
      if (now.at < from) continue;
      const kept = new Set(now.assigned ?? []);
      const had = before.assigned ?? [];
      const taken = had.filter((shard) => !kept.has(shard));
      if (taken.length === 0) continue;
      const gap = gapBefore(list, k, windowMs) ||
        (laggingAnswers.has(now.namespace) && recentGap(list, k, windowMs));
      const balancing = taken.length < had.length; // some stay
      const quarantined = new Set(now.quarantined ?? []);
      for (const shard of taken) {
        const drained = (drainedAt.get(`${now.namespace}\u0000${shard}`) ?? Infinity) <= now.at;
        const verdict: TakeVerdict = gap
          ? "gap"
          : leaving(before) || leaving(now)
          ? "leaving"
          : drained
          ? "drain"
          : quarantined.has(shard)
          ? "quarantine"
          : balancing
          ? "balancing"
          : "needless";
        const { namespace, executor } = now;
        takes.push({
          at: now.at,
          namespace,
          shard,
          executor,
          previousAnswerAt: before.at,
          verdict,
        });
      }
    }
  }
  return takes.sort((a, b) => a.at - b.at || a.shard.localeCompare(b.shard));
}

/**
 * The needless moves in a recording: the takes nothing excuses.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { findNeedlessMoves } from "./needless_moves.ts";
 *
 * const hb = (at: number, assigned: string[]) => ({
 *   type: "heartbeat" as const, at, sentAt: at - 5, process: "p", executor: "e",
 *   namespace: "n", ok: true, assigned,
 * });
 * const moves = findNeedlessMoves([hb(0, ["1", "2"]), hb(500, [])], {
 *   windowMs: 1_000, from: 0, until: 10_000,
 * });
 * assert.deepEqual(moves.map((m) => m.shard), ["1", "2"]);
 * ```
 */
export function findNeedlessMoves(
  events: readonly ChaosEvent[],
  options: NeedlessMoveOptions,
): NeedlessMove[] {
  return judgeTakes(events, options).filter((t): t is NeedlessMove => t.verdict === "needless");
}

/** Whether answer `k` came (or heartbeat `k` was sent) more than `windowMs` after the one before. */
function gapBefore(list: readonly HeartbeatEvent[], k: number, windowMs: number): boolean {
  const before = list[k - 1]!;
  const now = list[k]!;
  return now.at - before.at > windowMs || now.sentAt - before.sentAt > windowMs;
}

/** Whether an answer before `k`, at most `windowMs` before it, followed a gap. */
function recentGap(list: readonly HeartbeatEvent[], k: number, windowMs: number): boolean {
  for (let j = k - 1; j >= 1 && list[k]!.at - list[j]!.at <= windowMs; j--) {
    if (gapBefore(list, j, windowMs)) return true;
  }
  return false;
}

function leaving(heartbeat: HeartbeatEvent): boolean {
  return heartbeat.status !== undefined && heartbeat.status !== "ACTIVE";
}
