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
 *   freeze;
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
  const { windowMs, from, until } = options;
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
      const gap = now.at - before.at > windowMs || now.sentAt - before.sentAt > windowMs;
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

function leaving(heartbeat: HeartbeatEvent): boolean {
  return heartbeat.status !== undefined && heartbeat.status !== "ACTIVE";
}
