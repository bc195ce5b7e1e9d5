/**
 * What the history says about leadership. A new leader reads the claim it
 * replaced: a routine rotation (the previous leader's period was over) is only
 * counted, a handover for another reason (shutdown, changed definition) is
 * told with that reason, and a claim that was never marked handed over means
 * the previous leader stopped without letting go (killed, hung or cut off
 * from the store) until its election lease ran out. A leader that loses its
 * term without handing over (lease expired, a write fenced off) tells why.
 *
 * @module
 */
import type { HistoryNote } from "./history_notes.ts";
import { FencedError } from "../../core/errors.ts";
import type { LeaderClaim, LeaderTermEnd } from "../../core/types.ts";

/** How many routine rotations one summary note covers at most: one an hour. */
export const ROTATION_SUMMARY_MS = 60 * 60 * 1000;

function nameOf(claim: Pick<LeaderClaim, "instanceId" | "instanceName">): string {
  return claim.instanceName ?? claim.instanceId;
}

/**
 * The note of a new term, from the claim it replaced; `undefined` for a
 * routine rotation (see {@linkcode RotationDigest}).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { takeoverNote } from "./term_history.ts";
 *
 * const me = { instanceId: "b", term: 8 };
 * const killed = { instanceId: "a", term: 7, sinceMs: 0 };
 * assert.equal(takeoverNote(killed, me)?.reason, "not_handed_over");
 * const rotated = { ...killed, ended: { atMs: 1, reason: "leader period over", routine: true } };
 * assert.equal(takeoverNote(rotated, me), undefined);
 * ```
 */
export function takeoverNote(
  previous: LeaderClaim | undefined,
  me: Pick<LeaderClaim, "instanceId" | "instanceName" | "term">,
): HistoryNote | undefined {
  const leads = `instance ${nameOf(me)} leads (term ${me.term})`;
  const base = { type: "leader_changed" as const, instanceId: me.instanceId, term: me.term };
  if (previous === undefined) return { ...base, text: leads };
  const before = `instance ${nameOf(previous)} (term ${previous.term})`;
  if (previous.ended?.routine) return undefined;
  if (previous.ended) {
    return {
      ...base,
      reason: "handed_over",
      text: `${leads}: ${before} handed over (${previous.ended.reason})`,
    };
  }
  return {
    ...base,
    reason: "not_handed_over",
    text: `${leads}: ${before} did not hand over; its election lease ran out ` +
      `(the instance was killed, hung or cut off from the store)`,
  };
}

/**
 * How a term ended, from its signals: a handover (the claim is marked, the
 * next leader tells it), or a loss this leader tells itself.
 */
export type TermEnd =
  | { readonly kind: "handover"; readonly end: Omit<LeaderTermEnd, "atMs"> }
  | { readonly kind: "lost"; readonly note: HistoryNote };

/**
 * Classifies the end of a term: `leaseLost` when the election lease was lost,
 * `reason` the term signal's reason otherwise.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { termEnd } from "./term_history.ts";
 *
 * const me = { instanceId: "a", term: 3 };
 * assert.equal(termEnd(me, false, new Error("leader period over")).kind, "handover");
 * assert.equal(termEnd(me, true, new Error("lease lost")).kind, "lost");
 * ```
 */
export function termEnd(
  me: Pick<LeaderClaim, "instanceId" | "instanceName" | "term">,
  leaseLost: boolean,
  reason: unknown,
): TermEnd {
  const who = `instance ${nameOf(me)}`;
  const base = { type: "leader_lost" as const, instanceId: me.instanceId, term: me.term };
  const why = reason instanceof Error ? reason.message : String(reason);
  if (leaseLost) {
    return {
      kind: "lost",
      note: {
        ...base,
        reason: "lease_expired",
        text: `${who} lost leadership (term ${me.term}): its election lease expired or could ` +
          `not be renewed (${why})`,
      },
    };
  }
  if (reason instanceof FencedError) {
    return {
      kind: "lost",
      note: {
        ...base,
        reason: "fenced",
        text: `${who} stopped leading (term ${me.term}): a write was fenced off, another ` +
          `leader holds the namespace`,
      },
    };
  }
  return { kind: "handover", end: { reason: why, routine: why === "leader period over" } };
}

/**
 * Counts this instance's routine takeovers of a namespace and turns them
 * into one note an hour at most, so that a rotation every `leaderPeriod`
 * (1,440 a day at 60 s) does not fill the history.
 */
export class RotationDigest {
  #count = 0;
  #sinceMs: number | undefined;
  #from = new Map<string, number>();

  /** Counts a routine takeover from `previous` at wall time `nowMs`; a summary when one is due. */
  taken(previous: LeaderClaim, me: { instanceId: string }, nowMs: number): HistoryNote | undefined {
    this.#count++;
    const from = nameOf(previous);
    this.#from.set(from, (this.#from.get(from) ?? 0) + 1);
    const since = this.#sinceMs;
    if (since !== undefined && nowMs - since < ROTATION_SUMMARY_MS) return undefined;
    const froms = [...this.#from].map(([name, n]) => `${name} ${n}`).join(", ");
    const minutes = since === undefined ? 0 : Math.round((nowMs - since) / 60_000);
    const note: HistoryNote = {
      type: "leader_rotations",
      instanceId: me.instanceId,
      reason: "handed_over",
      text: since === undefined
        ? `routine leader rotation: this instance took over from ${from}; ` +
          `the next ones are counted in one note an hour`
        : `${this.#count} routine leader rotations taken by this instance in the last ` +
          `${minutes} min (from ${froms})`,
    };
    this.#count = 0;
    this.#sinceMs = nowMs;
    this.#from.clear();
    return note;
  }
}
