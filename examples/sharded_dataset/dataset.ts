/**
 * The dataset: generated orders, split into slices by `id % slices`. Loading
 * a slice reads it in chunks with a short pause per chunk, standing in for a
 * query against a database or an object store.
 *
 * @module
 */
import { sleep } from "../_shared/cli.ts";

/** One record of the dataset. */
export interface Order {
  /** The order id; its slice is `id % slices`. */
  readonly id: number;
  /** The customer, `customer-<n>`. */
  readonly customer: string;
  /** The amount in cents. */
  readonly amountCents: number;
}

/** How to load a slice. */
export interface LoadOptions {
  /** Orders in the whole dataset. @default {120000} */
  readonly total?: number;
  /** Orders per chunk. @default {1000} */
  readonly chunk?: number;
  /** Pause after each chunk, ms. @default {50} */
  readonly chunkDelayMs?: number;
  /** Stops loading; the promise then resolves `undefined`. */
  readonly signal?: AbortSignal;
}

/**
 * Loads slice `slice` of `slices`; resolves with its orders, or `undefined`
 * when `signal` aborted first.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { loadSlice } from "./dataset.ts";
 * const orders = await loadSlice(3, 12, { total: 120, chunkDelayMs: 0 });
 * assert.equal(orders?.length, 10);
 * assert.ok(orders.every((o) => o.id % 12 === 3));
 * ```
 */
export async function loadSlice(
  slice: number,
  slices: number,
  options: LoadOptions = {},
): Promise<Order[] | undefined> {
  const { total = 120_000, chunk = 1000, chunkDelayMs = 50, signal } = options;
  const orders: Order[] = [];
  for (let id = slice; id < total; id += slices) {
    if (signal?.aborted) return undefined;
    orders.push(order(id));
    if (orders.length % chunk === 0) await sleep(chunkDelayMs, signal);
  }
  return signal?.aborted ? undefined : orders;
}

function order(id: number): Order {
  // A small integer hash, so that every node generates the same dataset.
  let h = Math.imul(id ^ 0x9e3779b9, 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  h = (h ^ (h >>> 16)) >>> 0;
  return { id, customer: `customer-${h % 997}`, amountCents: 100 + (h % 100_000) };
}
