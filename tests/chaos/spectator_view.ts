/**
 * Compares what spectators last saw with what actually ran.
 *
 * @module
 */
import type { ChaosEvent } from "./events.ts";
import { runIntervals } from "./intervals.ts";

/**
 * How many (spectator, shard) pairs disagree at `until`: the spectator's last
 * owner is not an executor running the shard then, or it saw no owner while
 * one ran.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { spectatorMismatches } from "./spectator_view.ts";
 *
 * const base = { process: "p", executor: "e", namespace: "n", shard: "1" };
 * const events = [
 *   { type: "start", at: 1, token: "1", ...base },
 *   { type: "owner", at: 2, spectator: "s", namespace: "n", shard: "1", owner: "e" },
 * ] as const;
 * assert.equal(spectatorMismatches(events, 10), 0);
 * ```
 */
export function spectatorMismatches(events: readonly ChaosEvent[], until: number): number {
  const running = new Map<string, Set<string>>();
  for (const run of runIntervals(events, until)) {
    if (!run.open) continue;
    const key = `${run.namespace}\u0000${run.shard}`;
    running.set(key, (running.get(key) ?? new Set()).add(run.executor));
  }
  const seen = new Map<string, string | null>();
  const shards = new Set<string>();
  for (const e of events) {
    if (e.type !== "owner") continue;
    const shard = `${e.namespace}\u0000${e.shard}`;
    shards.add(shard);
    seen.set(`${e.spectator}\u0001${shard}`, e.owner);
  }
  let mismatches = 0;
  for (const [key, owner] of seen) {
    const shard = key.slice(key.indexOf("\u0001") + 1);
    const actual = running.get(shard);
    if (owner === null ? (actual?.size ?? 0) > 0 : !actual?.has(owner)) mismatches++;
  }
  return mismatches;
}
