/**
 * Refused operator calls in the namespace history: a drain refused by its
 * budget, a namespace update refused as unsafe, a call denied by
 * authorization. Each tells who asked, what and why. A caller that retries
 * in a loop is told once a minute per (caller, call, reason), with the
 * number of refusals in between, so a script cannot flood the history.
 *
 * @module
 */
import type { Clock } from "../core/clock.ts";
import type { HistoryLog } from "./history_log.ts";

/** A refused call. */
export interface Refusal {
  /** The RPC (`DrainExecutors`, `UpdateNamespace`, ...). */
  readonly method: string;
  /** The namespace it was about; refusals about unknown namespaces are not kept. */
  readonly namespace: string;
  /** Who asked (see operator_identity.ts). */
  readonly actor: string;
  /** The refusal's message, as the caller got it. */
  readonly reason: string;
}

/** Refusals of the same caller, call and reason recorded at most this often. */
export const REFUSAL_EVERY_MS = 60_000;

/** Most (caller, call, reason) kept for the rate limit. */
const MAX_TRACKED = 1_000;

/** Records refused operator calls in their namespace's history. */
export class OperatorAudit {
  readonly #history: Pick<HistoryLog, "record">;
  readonly #known: (namespace: string) => boolean;
  readonly #clock: Clock;
  readonly #last = new Map<string, { atMs: number; suppressed: number }>();

  /** Records in `history` for namespaces `known` says exist. */
  constructor(
    history: Pick<HistoryLog, "record">,
    known: (namespace: string) => boolean,
    clock: Clock,
  ) {
    this.#history = history;
    this.#known = known;
    this.#clock = clock;
  }

  /**
   * Records `refusal`, unless the same was recorded in the last minute.
   *
   * @example
   * ```ts
   * import assert from "node:assert/strict";
   * import { systemClock } from "../core/clock.ts";
   * import { OperatorAudit } from "./operator_audit.ts";
   *
   * const texts: string[] = [];
   * const history = { record: (_ns: string, e: { text: string }) => (texts.push(e.text), Promise.resolve()) };
   * const audit = new OperatorAudit(history, (ns) => ns === "orders", systemClock);
   * const refusal = { method: "DrainExecutors", namespace: "orders", actor: "ops", reason: "budget" };
   * audit.refused(refusal);
   * audit.refused(refusal);
   * audit.refused({ ...refusal, namespace: "nope" });
   * assert.deepEqual(texts, ["DrainExecutors by ops refused: budget"]);
   * ```
   */
  refused(refusal: Refusal): void {
    if (!this.#known(refusal.namespace)) return;
    const now = this.#clock.now();
    const key = JSON.stringify([refusal.namespace, refusal.actor, refusal.method, refusal.reason]);
    const last = this.#last.get(key);
    if (last && now - last.atMs < REFUSAL_EVERY_MS) {
      last.suppressed++;
      return;
    }
    const more = last?.suppressed
      ? ` (refused ${last.suppressed} more times since the last note)`
      : "";
    this.#last.delete(key);
    this.#last.set(key, { atMs: now, suppressed: 0 });
    if (this.#last.size > MAX_TRACKED) this.#last.delete(this.#last.keys().next().value!);
    void this.#history.record(refusal.namespace, {
      type: "operator_refused",
      actor: refusal.actor,
      method: refusal.method,
      reason: refusal.reason,
      text: `${refusal.method} by ${refusal.actor} refused: ${refusal.reason}${more}`,
    });
  }
}
