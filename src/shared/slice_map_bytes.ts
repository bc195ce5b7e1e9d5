/**
 * Reading the compact binary form of a key-range namespace's slice map (the
 * watch stream's `slice_map`, docs/wire.md "Slice map"), shared by the
 * service and the spectator SDK: a version byte, the slice count and the
 * next id as varints, then per slice its first point as 8 big-endian bytes,
 * its id and its generation as varints. Each slice ends where the next
 * starts; the last at 2^64.
 *
 * @module
 */

/** The format version written and read. */
export const SLICE_MAP_FORMAT = 1;

/** The slices as read, in line order: each with its first point. */
export interface SliceMapEntries {
  /** The id the next new slice gets. */
  readonly nextId: number;
  /** Slices in line order. */
  readonly slices: readonly {
    readonly id: number;
    readonly start: bigint;
    readonly generation: number;
  }[];
}

/**
 * Reads the binary form; throws a `RangeError` saying what is wrong (unknown
 * version, truncated bytes, trailing bytes). Does not check that the slices
 * cover the line: the caller builds its map and checks that.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { readSliceMapBytes } from "./slice_map_bytes.ts";
 *
 * // Version 1, one slice, next id 1: slice 0 from point 0, generation 0.
 * const bytes = new Uint8Array([1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
 * assert.deepEqual(readSliceMapBytes(bytes), { nextId: 1, slices: [{ id: 0, start: 0n, generation: 0 }] });
 * assert.throws(() => readSliceMapBytes(new Uint8Array([9])), /format version 9/);
 * ```
 */
export function readSliceMapBytes(bytes: Uint8Array): SliceMapEntries {
  let at = 0;
  const fail = (what: string): never => {
    throw new RangeError(`Invalid slice map bytes at offset ${at}: ${what}`);
  };
  const byte = (): number => at < bytes.length ? bytes[at++]! : fail("truncated");
  const varint = (): number => {
    let value = 0, scale = 1;
    for (;;) {
      const b = byte();
      value += (b & 0x7f) * scale;
      if (b < 0x80) return value;
      scale *= 0x80;
      if (scale > 2 ** 49) fail("varint too long");
    }
  };
  const version = byte();
  if (version !== SLICE_MAP_FORMAT) {
    fail(`format version ${version}, this code reads version ${SLICE_MAP_FORMAT}`);
  }
  const count = varint();
  const nextId = varint();
  if (count * 10 > bytes.length) fail(`${count} slices cannot fit in ${bytes.length} bytes`);
  const slices: { id: number; start: bigint; generation: number }[] = [];
  for (let i = 0; i < count; i++) {
    let start = 0n;
    for (let j = 0; j < 8; j++) start = (start << 8n) | BigInt(byte());
    slices.push({ start, id: varint(), generation: varint() });
  }
  if (at !== bytes.length) fail(`${bytes.length - at} trailing bytes`);
  return { nextId, slices };
}
