/**
 * The events of the example and the check that each entity's events were
 * processed in the order sent.
 *
 * @module
 */

/** An event for one entity; `seq` counts that entity's events from 0. */
export interface EntityEvent {
  /** The entity, which is also the shard key. */
  readonly entity: string;
  /** Position in the entity's stream, from 0. */
  readonly seq: number;
  /** What happened. */
  readonly type: string;
  /** The entity's last event: its owner reports the shard DONE after it. */
  readonly last: boolean;
}

/** A line of the record file: an event was processed. */
export interface ProcessedRecord extends EntityEvent {
  /** Record kind. */
  readonly kind: "processed";
  /** The node that processed it. */
  readonly node: string;
  /** When, ms since the epoch. */
  readonly at: number;
}

const TYPES = ["created", "item-added", "item-added", "address-set", "paid", "packed", "shipped"];

/**
 * The `seq`-th event of `entity` in a stream of `count`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { eventFor } from "./events.ts";
 * assert.equal(eventFor("order-1", 0, 3).type, "created");
 * assert.ok(eventFor("order-1", 2, 3).last);
 * ```
 */
export function eventFor(entity: string, seq: number, count: number): EntityEvent {
  const type = seq === count - 1 ? "delivered" : TYPES[seq % TYPES.length]!;
  return { entity, seq, type, last: seq === count - 1 };
}

/**
 * Problems with the processing order: for each entity of `sent` (entity →
 * events sent), the processed `seq`s must be exactly `0..n-1` in order.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { orderProblems } from "./events.ts";
 * const r = (seq: number) => ({ kind: "processed" as const, entity: "e", seq, type: "", last: false, node: "n", at: 0 });
 * assert.equal(orderProblems([r(0), r(1)], new Map([["e", 2]])).length, 0);
 * assert.equal(orderProblems([r(1), r(0)], new Map([["e", 2]])).length, 1);
 * ```
 */
export function orderProblems(
  records: readonly ProcessedRecord[],
  sent: ReadonlyMap<string, number>,
): string[] {
  const problems: string[] = [];
  for (const [entity, count] of sent) {
    const seqs = records.filter((r) => r.entity === entity).map((r) => r.seq);
    const expected = Array.from({ length: count }, (_, i) => i);
    if (seqs.join() !== expected.join()) {
      problems.push(`${entity}: processed [${seqs.join(" ")}], sent 0..${count - 1}`);
    }
  }
  return problems;
}
