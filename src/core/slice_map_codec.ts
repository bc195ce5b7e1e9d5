/**
 * A compact binary form of a slice map (and its text form, base64): one
 * version byte, then varints for the slice count and the next id, then per
 * slice its start as 8 big-endian bytes, its id and its generation as
 * varints. Ends are implied (each slice ends where the next starts; the last
 * at 2^64). About 11-13 bytes per slice: 3,200 slices take about 40 KB.
 *
 * @module
 */
import { LINE_END, type Slice, SliceMap } from "./slices.ts";
import { readSliceMapBytes, SLICE_MAP_FORMAT } from "../shared/slice_map_bytes.ts";

export { SLICE_MAP_FORMAT } from "../shared/slice_map_bytes.ts";

function pushVarint(out: number[], value: number): void {
  let v = value;
  while (v >= 0x80) {
    out.push((v % 0x80) | 0x80);
    v = Math.floor(v / 0x80);
  }
  out.push(v);
}

/**
 * Encodes `map` in the compact binary form.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { SliceMap } from "./slices.ts";
 * import { decodeSliceMap, encodeSliceMap } from "./slice_map_codec.ts";
 *
 * const map = SliceMap.initial(8).split(3, (3n << 61n) + 5n);
 * const bytes = encodeSliceMap(map);
 * assert.equal(bytes.length, 3 + 9 * 10);
 * assert.deepEqual(decodeSliceMap(bytes).slices, map.slices);
 * ```
 */
export function encodeSliceMap(map: SliceMap): Uint8Array {
  const out: number[] = [SLICE_MAP_FORMAT];
  pushVarint(out, map.size);
  pushVarint(out, map.nextId);
  for (const slice of map.slices) {
    for (let shift = 56n; shift >= 0n; shift -= 8n) {
      out.push(Number((slice.start >> shift) & 0xffn));
    }
    pushVarint(out, slice.id);
    pushVarint(out, slice.generation);
  }
  return Uint8Array.from(out);
}

/**
 * Decodes the compact binary form; throws a `RangeError` saying what is
 * wrong (unknown version, truncated bytes, trailing bytes, a map that does not
 * cover the line exactly once).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { decodeSliceMap } from "./slice_map_codec.ts";
 *
 * assert.throws(() => decodeSliceMap(new Uint8Array([9])), /format version 9/);
 * ```
 */
export function decodeSliceMap(bytes: Uint8Array): SliceMap {
  const { nextId, slices } = readSliceMapBytes(bytes);
  return SliceMap.from(
    slices.map((s, i): Slice => ({
      id: s.id,
      start: s.start,
      end: slices[i + 1]?.start ?? LINE_END,
      generation: s.generation,
    })),
    nextId,
  );
}

/**
 * The slice map as text (base64 of {@linkcode encodeSliceMap}), followed by
 * ` pinned=<ids>` when an operator pinned slices (ids ascending, comma
 * separated): the form an assignment change and the store's snapshot carry
 * (`AssignmentDelta.slices`). The pins are the service's own; the wire's
 * slice map (`slice_map`) is the binary form alone.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { SliceMap } from "./slices.ts";
 * import { sliceMapFromText, slicePinsFromText, sliceMapText } from "./slice_map_codec.ts";
 *
 * const map = SliceMap.initial(4).split(1, (1n << 62n) + 9n);
 * assert.deepEqual(sliceMapFromText(sliceMapText(map)).slices, map.slices);
 * const text = sliceMapText(map, [4, 1]);
 * assert.match(text, / pinned=1,4$/);
 * assert.deepEqual([...slicePinsFromText(text)], [1, 4]);
 * assert.deepEqual(sliceMapFromText(text).slices, map.slices);
 * ```
 */
export function sliceMapText(map: SliceMap, pinned: Iterable<number> = []): string {
  const bytes = encodeSliceMap(map);
  let binary = "";
  for (let i = 0; i < bytes.length; i += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  }
  const pins = [...new Set(pinned)].sort((a, b) => a - b);
  return btoa(binary) + (pins.length > 0 ? ` pinned=${pins.join(",")}` : "");
}

/**
 * Reads the map of {@linkcode sliceMapText}'s form; throws a `RangeError` for
 * text that is not base64 or whose bytes are not a slice map.
 */
export function sliceMapFromText(text: string): SliceMap {
  const space = text.indexOf(" ");
  let binary: string;
  try {
    binary = atob(space < 0 ? text : text.slice(0, space));
  } catch {
    throw new RangeError("Invalid slice map text: not base64");
  }
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return decodeSliceMap(bytes);
}

/**
 * The pinned slice ids of {@linkcode sliceMapText}'s form (empty when none);
 * throws a `RangeError` for a pin list that is not ids.
 */
export function slicePinsFromText(text: string): ReadonlySet<number> {
  const at = text.indexOf(" pinned=");
  if (at < 0) return new Set();
  const ids = text.slice(at + " pinned=".length).split(",").map(Number);
  if (ids.some((id) => !Number.isSafeInteger(id) || id < 0)) {
    throw new RangeError(`Invalid slice map text: bad pin list ${JSON.stringify(text.slice(at))}`);
  }
  return new Set(ids);
}
