/**
 * When each shard was served, and by whom, from the events the sharded
 * counter's nodes print (`serving` when a shard's load finished,
 * `unserving` when it stopped serving it); and from that, every move
 * between nodes with the time the shard was served by nobody.
 *
 * @module
 */

/** A move of a shard to another node. */
export interface Move {
  /** The shard. */
  readonly shard: string;
  /** The node that served it last before. */
  readonly from: string;
  /** The node that serves it now. */
  readonly to: string;
  /** When the new node began serving it (ms since the epoch). */
  readonly at: number;
  /** Time no node served the shard before `at`, ms (0 when the old one still served it). */
  readonly unservedMs: number;
}

interface Interval {
  readonly node: string;
  readonly from: number;
  until: number | undefined;
}

/**
 * Serving intervals per shard.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { ServingTimeline } from "./serving_timeline.ts";
 *
 * const timeline = new ServingTimeline();
 * timeline.serving("n1", "7", 1_000);
 * timeline.unserving("n1", "7", 2_000);
 * timeline.serving("n2", "7", 2_300); // served by nobody for 300 ms
 * assert.deepEqual(timeline.moves(1_500, 3_000), [
 *   { shard: "7", from: "n1", to: "n2", at: 2_300, unservedMs: 300 },
 * ]);
 * assert.deepEqual(timeline.holders("7"), ["n2"]);
 * ```
 */
export class ServingTimeline {
  readonly #shards = new Map<string, Interval[]>();
  #lastChange = 0;

  /** `node` began serving `shard` at `at`. */
  serving(node: string, shard: string, at: number): void {
    const list = this.#shards.get(shard) ?? [];
    list.push({ node, from: at, until: undefined });
    this.#shards.set(shard, list);
    this.#lastChange = performance.now();
  }

  /** `node` stopped serving `shard` at `at`. */
  unserving(node: string, shard: string, at: number): void {
    const open = this.#shards.get(shard)?.find((i) => i.node === node && i.until === undefined);
    if (open) open.until = at;
    this.#lastChange = performance.now();
  }

  /** `node` exited at `at`: whatever it still served ends then. */
  exited(node: string, at: number): void {
    for (const list of this.#shards.values()) {
      for (const i of list) if (i.node === node && i.until === undefined) i.until = at;
    }
    this.#lastChange = performance.now();
  }

  /** The nodes serving `shard` now. */
  holders(shard: string): string[] {
    return (this.#shards.get(shard) ?? []).filter((i) => i.until === undefined).map((i) => i.node);
  }

  /** Shards each node serves now. */
  servedBy(): Map<string, number> {
    const counts = new Map<string, number>();
    for (const list of this.#shards.values()) {
      for (const i of list) {
        if (i.until === undefined) counts.set(i.node, (counts.get(i.node) ?? 0) + 1);
      }
    }
    return counts;
  }

  /** `performance.now()` of the last event. */
  get lastChange(): number {
    return this.#lastChange;
  }

  /** The moves whose new node began serving within `[fromMs, toMs]`. */
  moves(fromMs: number, toMs: number): Move[] {
    const moves: Move[] = [];
    for (const [shard, list] of this.#shards) {
      const sorted = list.toSorted((a, b) => a.from - b.from);
      for (const [k, next] of sorted.entries()) {
        if (k === 0 || next.from < fromMs || next.from > toMs) continue;
        const before = sorted.slice(0, k);
        const last = before.at(-1)!;
        if (last.node === next.node) continue; // it came back to the same node: no move
        const coveredUntil = Math.max(...before.map((i) => i.until ?? Infinity));
        moves.push({
          shard,
          from: last.node,
          to: next.node,
          at: next.from,
          unservedMs: Math.max(0, next.from - coveredUntil),
        });
      }
    }
    return moves.sort((a, b) => a.at - b.at);
  }
}
