const LITTLE_ENDIAN = new Uint8Array(Uint32Array.of(1).buffer)[0] === 1;
const LOW_WORD = LITTLE_ENDIAN ? 0 : 1;
const HIGH_WORD = LITTLE_ENDIAN ? 1 : 0;
const SMALL = 48;

/**
 * Sorts shard indices by their load, stably (equal loads keep the order of
 * `items`). Loads must be finite and non-negative, with no -0: the bits of such
 * doubles order like the numbers, so large inputs use an LSD radix sort on the
 * 64 bits, eight bits at a time, skipping bytes every key shares; it never
 * calls a comparator. Returns a new array; `items` is not mutated.
 *
 * @example Heaviest first; equal loads keep their order
 * ```ts
 * import assert from "node:assert/strict";
 * import { sortByLoad } from "./_sort_by_load.ts";
 *
 * const loads = Float64Array.of(1, 5, 2, 5);
 * const order = sortByLoad(Int32Array.of(0, 1, 2, 3), loads, "descending");
 * assert.deepEqual([...order], [1, 3, 2, 0]);
 * ```
 */
export function sortByLoad(
  items: Int32Array,
  loads: Float64Array,
  order: "ascending" | "descending",
): Int32Array {
  const k = items.length;
  const keys = new Float64Array(k);
  for (let i = 0; i < k; i++) keys[i] = loads[items[i]!]!;
  const positions = k < SMALL ? insertionSort(keys, order) : radixSort(keys, order);
  const sorted = new Int32Array(k);
  for (let i = 0; i < k; i++) sorted[i] = items[positions[i]!]!;
  return sorted;
}

function insertionSort(keys: Float64Array, order: "ascending" | "descending"): Int32Array {
  const k = keys.length;
  const sign = order === "ascending" ? 1 : -1;
  const positions = new Int32Array(k);
  for (let i = 0; i < k; i++) {
    const key = keys[i]! * sign;
    let j = i;
    while (j > 0 && keys[positions[j - 1]!]! * sign > key) {
      positions[j] = positions[j - 1]!;
      j--;
    }
    positions[j] = i;
  }
  return positions;
}

function radixSort(keys: Float64Array, order: "ascending" | "descending"): Int32Array {
  const k = keys.length;
  const words = new Uint32Array(keys.buffer);
  const flip = order === "ascending" ? 0 : 0xffffffff;
  let from = new Int32Array(k);
  let to = new Int32Array(k);
  for (let i = 0; i < k; i++) from[i] = i;
  const counts = new Int32Array(256);
  for (let pass = 0; pass < 8; pass++) {
    const word = pass < 4 ? LOW_WORD : HIGH_WORD;
    const shift = (pass & 3) * 8;
    counts.fill(0);
    for (let i = 0; i < k; i++) {
      counts[((words[2 * i + word]! ^ flip) >>> shift) & 255]!++;
    }
    let skip = false;
    for (let d = 0; d < 256; d++) {
      if (counts[d] === k) skip = true;
    }
    if (skip) continue;
    let total = 0;
    for (let d = 0; d < 256; d++) {
      const c = counts[d]!;
      counts[d] = total;
      total += c;
    }
    for (let i = 0; i < k; i++) {
      const position = from[i]!;
      const digit = ((words[2 * position + word]! ^ flip) >>> shift) & 255;
      to[counts[digit]!++] = position;
    }
    [from, to] = [to, from];
  }
  return from;
}
