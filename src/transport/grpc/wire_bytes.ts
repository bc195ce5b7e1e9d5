/**
 * The few protobuf primitives the direct writers need (heartbeat answers,
 * watch messages): varint sizes and a writer over a buffer sized beforehand,
 * which writes strings one byte per character and notices any that is not
 * ASCII. Each writer returns `undefined` for a message these do not cover,
 * and its caller takes protobufjs's generic path.
 *
 * @module
 */

/** True for a whole number in 0..2^53, which these writers encode as a varint. */
export function isWireNumber(n: number): boolean {
  return Number.isSafeInteger(n) && n >= 0;
}

/**
 * Bytes of `value` (a whole number in 0..2^53) as a varint.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { varintSize } from "./wire_bytes.ts";
 *
 * assert.equal(varintSize(127), 1);
 * assert.equal(varintSize(128), 2);
 * ```
 */
export function varintSize(value: number): number {
  let n = 1;
  while (value > 127) {
    value = Math.floor(value / 128);
    n++;
  }
  return n;
}

/** Bytes of a length-delimited field holding `length` bytes (tag, length, payload). */
export function delimitedSize(length: number): number {
  return 1 + varintSize(length) + length;
}

/**
 * Writes into a buffer of the exact size the message needs.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { ByteWriter } from "./wire_bytes.ts";
 *
 * const w = new ByteWriter(4);
 * w.byte(0x0a);
 * w.ascii("ab"); // length, then the characters
 * assert.deepEqual([...w.finish()!], [10, 2, 97, 98]);
 *
 * const wide = new ByteWriter(2);
 * wide.ascii("é");
 * assert.equal(wide.finish(), undefined);
 * ```
 */
export class ByteWriter {
  private readonly buf: Uint8Array;
  private pos = 0;
  /** Every character code written by `ascii`, or-ed: above 127 when one was not ASCII. */
  private codes = 0;

  /** A writer of `size` bytes. */
  constructor(size: number) {
    this.buf = new Uint8Array(size);
  }

  /** Writes one byte (a tag, a one-byte value). */
  byte(value: number): void {
    this.buf[this.pos++] = value;
  }

  /** Writes a whole number in 0..2^53 as a varint. */
  varint(value: number): void {
    const out = this.buf;
    while (value > 127) {
      out[this.pos++] = (value % 128) | 128;
      value = Math.floor(value / 128);
    }
    out[this.pos++] = value;
  }

  /**
   * Writes a string's length, then its characters, one byte each: right for
   * ASCII; `finish` notices any other string.
   */
  ascii(text: string): void {
    this.varint(text.length);
    const out = this.buf;
    let at = this.pos;
    let codes = this.codes;
    for (let c = 0; c < text.length; c++) {
      const code = text.charCodeAt(c);
      codes |= code;
      out[at++] = code;
    }
    this.codes = codes;
    this.pos = at;
  }

  /**
   * The bytes, or `undefined` when a string written was not ASCII (its size
   * was counted in characters, and its bytes are not its UTF-8); throws when
   * the sizes given were wrong (a bug in the caller).
   */
  finish(): Uint8Array | undefined {
    if (this.codes > 127) return undefined;
    if (this.pos !== this.buf.length) {
      throw new Error(`wrote ${this.pos} of ${this.buf.length} bytes`);
    }
    return this.buf;
  }
}
