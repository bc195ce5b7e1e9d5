/**
 * The sharded dataset's shard logic: the processor that loads the slice of
 * its shard into memory and keeps it there until the shard moves away. The
 * node (`node.ts`) runs it under an executor; `slice_holder_test.ts` tests it
 * against the test kit.
 *
 * @module
 */
import { type ProcessorFactory, ShardStoppedError } from "../../packages/sdk/mod.ts";
import { type LoadOptions, loadSlice, type Order } from "./dataset.ts";

/** What a {@linkcode SliceHolder} tells its node. */
export interface SliceEvents {
  /** A shard's processor started, with its fencing token. */
  onStart?(slice: number, token: string): void;
  /** The slice is in memory. */
  onLoaded?(slice: number, orders: number, ms: number): void;
  /** The slice was released, with the reason (`unassigned`, `shutdown`, ...). */
  onStop?(slice: number, reason: string): void;
}

/**
 * Holds the slices of the shards assigned to this process in memory.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { SliceHolder } from "./slice_holder.ts";
 *
 * const holder = new SliceHolder(12, { total: 120, chunkDelayMs: 0 });
 * assert.equal(holder.held.size, 0);
 * ```
 */
export class SliceHolder {
  /** Slice → its orders, for each slice loaded and not released. */
  readonly held: Map<number, readonly Order[]> = new Map();
  /** Starts one slice's processor; give it to an `Executor`. */
  readonly processor: ProcessorFactory;

  /** Slices of `slices`, loaded with `options`; `events` hear starts, loads and stops. */
  constructor(slices: number, options: Omit<LoadOptions, "signal"> & SliceEvents = {}) {
    this.processor = (ctx) => {
      const slice = Number(ctx.shardKey), began = Date.now();
      options.onStart?.(slice, ctx.fencingToken);
      const loading = loadSlice(slice, slices, { ...options, signal: ctx.signal }).then(
        (orders) => {
          if (!orders) return;
          this.held.set(slice, orders);
          ctx.reportLoad(orders.length);
          options.onLoaded?.(slice, orders.length, Date.now() - began);
        },
      );
      return {
        stop: async () => {
          await loading;
          this.held.delete(slice);
          const why = ctx.signal.reason;
          options.onStop?.(slice, why instanceof ShardStoppedError ? why.reason : String(why));
        },
      };
    };
  }
}
