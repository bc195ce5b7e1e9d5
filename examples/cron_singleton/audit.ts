/**
 * Checks a ledger against its cron expression: every tick between the first
 * and the last recorded one ran exactly once, in order.
 *
 * @module
 */
import { Cron } from "croner";
import type { LedgerEntry, RunEntry } from "./ledger.ts";

/** What {@linkcode auditLedger} found. */
export interface Audit {
  /** The runs, in the order they were recorded. */
  readonly runs: readonly RunEntry[];
  /** Ticks recorded more than once. */
  readonly duplicates: readonly string[];
  /** Ticks of the schedule, between the first and last run, that never ran. */
  readonly missing: readonly string[];
  /** Runs recorded before an earlier tick. */
  readonly outOfOrder: readonly string[];
  /** Runs that started more than `lateAfterMs` after their tick (catch-up). */
  readonly late: readonly RunEntry[];
  /** Leaders in the order they fenced the ledger. */
  readonly leaders: readonly { readonly node: string; readonly token: string }[];
}

/**
 * Audits `entries` against `pattern`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { auditLedger } from "./audit.ts";
 * const run = (tick: string) => ({
 *   kind: "run" as const, tick, token: "1", node: "a", pid: 1, lateMs: 0, result: "", at: 0,
 * });
 * const audit = auditLedger([run("2030-01-01T00:00:00.000Z"), run("2030-01-01T00:00:02.000Z")], "* * * * * *");
 * assert.equal(audit.missing[0], "2030-01-01T00:00:01.000Z");
 * ```
 */
export function auditLedger(
  entries: readonly LedgerEntry[],
  pattern: string,
  lateAfterMs = 500,
): Audit {
  const cron = new Cron(pattern);
  const runs = entries.filter((e): e is RunEntry => e.kind === "run");
  const leaders = entries.filter((e) => e.kind === "lease").map(({ node, token }) => ({
    node,
    token,
  }));
  const seen = new Set<string>(), duplicates: string[] = [], outOfOrder: string[] = [];
  let latest = "";
  for (const run of runs) {
    if (seen.has(run.tick)) duplicates.push(run.tick);
    else if (run.tick < latest) outOfOrder.push(run.tick);
    seen.add(run.tick);
    if (run.tick > latest) latest = run.tick;
  }
  const missing: string[] = [];
  const first = [...seen].sort()[0];
  if (first !== undefined) {
    for (
      let t = cron.nextRun(new Date(first));
      t && t.toISOString() < latest;
      t = cron.nextRun(t)
    ) {
      if (!seen.has(t.toISOString())) missing.push(t.toISOString());
    }
  }
  const late = runs.filter((r) => r.lateMs > lateAfterMs);
  return { runs, duplicates, missing, outOfOrder, late, leaders };
}
