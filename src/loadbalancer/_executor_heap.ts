/**
 * An indexed binary heap of executor indices, ordered by two external key
 * arrays and then by index (lower index first). The caller owns the keys:
 * change `primary[e]`/`secondary[e]`, then call {@linkcode ExecutorHeap.update}.
 * With `order: "max"` the larger keys come first; ties still prefer the lower
 * index. Every operation is O(log executors) and allocates nothing.
 *
 * @example The executor with the least load, ties broken by fewest shards
 * ```ts
 * import assert from "node:assert/strict";
 * import { ExecutorHeap } from "./_executor_heap.ts";
 *
 * const load = Float64Array.of(5, 2, 2);
 * const count = Float64Array.of(1, 3, 1);
 * const heap = ExecutorHeap.of(load, count, "min");
 * assert.equal(heap.peek(), 2);
 * load[2] = 9;
 * heap.update(2);
 * assert.equal(heap.peek(), 1);
 * ```
 */
export class ExecutorHeap {
  readonly #heap: Int32Array;
  readonly #pos: Int32Array;
  readonly #primary: Float64Array;
  readonly #secondary: Float64Array;
  readonly #sign: number;
  #size = 0;

  /** Creates an empty heap over executors `0 .. primary.length - 1`. */
  constructor(primary: Float64Array, secondary: Float64Array, order: "min" | "max") {
    this.#primary = primary;
    this.#secondary = secondary;
    this.#sign = order === "min" ? 1 : -1;
    this.#heap = new Int32Array(primary.length);
    this.#pos = new Int32Array(primary.length).fill(-1);
  }

  /** Creates a heap holding every executor, built bottom-up in O(executors). */
  static of(primary: Float64Array, secondary: Float64Array, order: "min" | "max"): ExecutorHeap {
    const heap = new ExecutorHeap(primary, secondary, order);
    const size = primary.length;
    for (let e = 0; e < size; e++) {
      heap.#heap[e] = e;
      heap.#pos[e] = e;
    }
    heap.#size = size;
    for (let i = (size >> 1) - 1; i >= 0; i--) heap.#down(i);
    return heap;
  }

  /** Number of executors in the heap. */
  get size(): number {
    return this.#size;
  }

  /** The first executor, or -1 when the heap is empty. */
  peek(): number {
    return this.#size === 0 ? -1 : this.#heap[0]!;
  }

  /** Whether `executor` is in the heap. */
  has(executor: number): boolean {
    return this.#pos[executor]! >= 0;
  }

  /** Adds `executor`, which must not be in the heap. */
  push(executor: number): void {
    const i = this.#size++;
    this.#heap[i] = executor;
    this.#pos[executor] = i;
    this.#up(i);
  }

  /** Removes `executor` if present. */
  remove(executor: number): void {
    const i = this.#pos[executor]!;
    if (i < 0) return;
    this.#pos[executor] = -1;
    const last = this.#heap[--this.#size]!;
    if (i === this.#size) return;
    this.#heap[i] = last;
    this.#pos[last] = i;
    this.#up(i);
    this.#down(this.#pos[last]!);
  }

  /** Restores the order after the keys of `executor` changed; no-op if absent. */
  update(executor: number): void {
    const i = this.#pos[executor]!;
    if (i < 0) return;
    this.#up(i);
    this.#down(this.#pos[executor]!);
  }

  #up(i: number): void {
    const heap = this.#heap;
    const pos = this.#pos;
    const primary = this.#primary;
    const secondary = this.#secondary;
    const sign = this.#sign;
    const item = heap[i]!;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      const other = heap[parent]!;
      if (!before(primary, secondary, sign, item, other)) break;
      heap[i] = other;
      pos[other] = i;
      i = parent;
    }
    heap[i] = item;
    pos[item] = i;
  }

  #down(i: number): void {
    const heap = this.#heap;
    const pos = this.#pos;
    const primary = this.#primary;
    const secondary = this.#secondary;
    const sign = this.#sign;
    const size = this.#size;
    const item = heap[i]!;
    for (;;) {
      let child = 2 * i + 1;
      if (child >= size) break;
      const right = child + 1;
      if (right < size && before(primary, secondary, sign, heap[right]!, heap[child]!)) {
        child = right;
      }
      const other = heap[child]!;
      if (!before(primary, secondary, sign, other, item)) break;
      heap[i] = other;
      pos[other] = i;
      i = child;
    }
    heap[i] = item;
    pos[item] = i;
  }
}

/** Whether executor `a` comes before `b`; `sign` is 1 for a min-heap, -1 for a max-heap. */
function before(
  primary: Float64Array,
  secondary: Float64Array,
  sign: number,
  a: number,
  b: number,
): boolean {
  const pa = primary[a]! * sign;
  const pb = primary[b]! * sign;
  if (pa !== pb) return pa < pb;
  const sa = secondary[a]! * sign;
  const sb = secondary[b]! * sign;
  if (sa !== sb) return sa < sb;
  return a < b;
}
