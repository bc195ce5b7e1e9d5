/**
 * The downstream fencing check: the processors' acknowledged writes to the
 * fenced store (`fence_store.ts`) against its final values.
 *
 * - `fencing-stale`: a write accepted with a token lower than one the store
 *   had already accepted for that shard (in the store's order, the write
 *   numbers), or with the same token as another executor's: a stale owner
 *   got through.
 * - `fencing-lost`: an acknowledged write the final values do not contain:
 *   its number is above the shard's final count, the shard has no value at
 *   all, or another acknowledged write of the shard got the same number (one
 *   overwrote the other). Only writes acknowledged before the final read
 *   began are judged (a later one may have landed after the read).
 *
 * @module
 */
import type { Violation } from "./checker.ts";
import type { ChaosEvent, FenceWriteEvent } from "./events.ts";
import type { FenceValue } from "./fence_store.ts";

/** What {@linkcode checkFencing} found. */
export interface FencingResult {
  /** Acknowledged (accepted) writes. */
  readonly writes: number;
  /** Writes the store refused because it had seen a greater token. */
  readonly rejected: number;
  /** Shards written at least once. */
  readonly shards: number;
  readonly violations: readonly Violation[];
}

/**
 * Checks the writes in `events` against `finals` (keyed `namespace/shard`),
 * read from the store starting at `readAt`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { checkFencing } from "./fencing.ts";
 *
 * const write = (count: number, token: string) => ({
 *   type: "write" as const, at: count, process: "p", executor: "e", namespace: "n",
 *   shard: "0", token, count,
 * });
 * const finals = new Map([["n/0", { token: "7", count: 2 }]]);
 * assert.deepEqual(checkFencing([write(1, "5"), write(2, "7")], finals, 100).violations, []);
 * assert.equal(checkFencing([write(1, "7"), write(2, "5")], finals, 100).violations.length, 1);
 * ```
 */
export function checkFencing(
  events: readonly ChaosEvent[],
  finals: ReadonlyMap<string, FenceValue>,
  readAt: number,
): FencingResult {
  const byShard = new Map<string, FenceWriteEvent[]>();
  let rejected = 0;
  for (const e of events) {
    if (e.type === "write-rejected") rejected++;
    if (e.type !== "write") continue;
    const key = `${e.namespace}/${e.shard}`;
    byShard.set(key, [...byShard.get(key) ?? [], e]);
  }
  const violations: Violation[] = [];
  let writes = 0;
  for (const [key, list] of byShard) {
    writes += list.length;
    list.sort((a, b) => a.count - b.count || a.at - b.at);
    const place = { namespace: list[0]!.namespace, shard: list[0]!.shard };
    let highest: FenceWriteEvent | undefined;
    let previous: FenceWriteEvent | undefined;
    for (const w of list) {
      if (highest !== undefined && BigInt(w.token) < BigInt(highest.token)) {
        violations.push({
          rule: "fencing-stale",
          at: w.at,
          ...place,
          message: `write #${w.count} to ${key} by ${w.executor} with token ${w.token} was ` +
            `accepted after #${highest.count} by ${highest.executor} with token ${highest.token}`,
        });
      } else if (
        highest !== undefined && w.token === highest.token && w.executor !== highest.executor
      ) {
        violations.push({
          rule: "fencing-stale",
          at: w.at,
          ...place,
          message:
            `${w.executor} and ${highest.executor} both wrote to ${key} with token ${w.token}`,
        });
      }
      if (highest === undefined || BigInt(w.token) >= BigInt(highest.token)) highest = w;
      const judged = w.at < readAt;
      const final = finals.get(key);
      if (judged && (final === undefined || w.count > final.count)) {
        violations.push({
          rule: "fencing-lost",
          at: w.at,
          ...place,
          message: `write #${w.count} to ${key} by ${w.executor} was acknowledged but the ` +
            `store ends at ${final === undefined ? "no value" : `#${final.count}`}`,
        });
      } else if (judged && previous !== undefined && previous.count === w.count) {
        violations.push({
          rule: "fencing-lost",
          at: w.at,
          ...place,
          message: `two acknowledged writes to ${key} got number ${w.count} ` +
            `(${previous.executor} and ${w.executor}): one overwrote the other`,
        });
      }
      previous = w;
    }
  }
  violations.sort((a, b) => a.at - b.at);
  return { writes, rejected, shards: byShard.size, violations };
}
