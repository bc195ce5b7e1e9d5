/**
 * Reading protobuf's wire format record by record, for the heartbeat's hand
 * readers (heartbeat_split.ts finds the report entries, report_entries_reader.ts
 * reads them): varints and skipped fields without an object per read.
 *
 * @module
 */

/**
 * A cursor over `bytes` up to `end`: every read returns -1 (or false) past
 * the end or on a varint it does not take, and the caller then leaves the
 * message to protobufjs.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { ProtoCursor } from "./_proto_cursor.ts";
 *
 * // field 1, varint 300; field 2, two bytes of payload.
 * const c = new ProtoCursor(Uint8Array.of(0x08, 0xac, 0x02, 0x12, 2, 7, 7), 7);
 * assert.equal(c.varint(), 0x08);
 * assert.ok(c.skip(0));
 * assert.equal(c.varint(), 0x12);
 * assert.ok(c.skip(2));
 * assert.equal(c.at, 7);
 * assert.equal(c.varint(), -1); // past the end
 * ```
 */
export class ProtoCursor {
  /** Offset of the next read. */
  at = 0;
  /** Reads `bytes` up to (not past) `end`. */
  constructor(readonly bytes: Uint8Array, readonly end: number) {}

  /** A varint of at most 5 bytes below 2^31 (tags, lengths, enum values); -1 otherwise. */
  varint(): number {
    let value = 0;
    for (let shift = 0; shift < 35; shift += 7) {
      const byte = this.bytes[this.at++];
      if (byte === undefined || this.at > this.end) return -1;
      value += (byte & 0x7f) * 2 ** shift;
      if (byte < 0x80) return value <= 0x7fffffff ? value : -1;
    }
    return -1;
  }

  /** Skips a field of `wireType`; false when it cannot. */
  skip(wireType: number): boolean {
    switch (wireType) {
      case 0: {
        for (let i = 0; i < 10; i++) {
          const byte = this.bytes[this.at++];
          if (byte === undefined || this.at > this.end) return false;
          if (byte < 0x80) return true;
        }
        return false;
      }
      case 1:
        this.at += 8;
        return this.at <= this.end;
      case 2: {
        const length = this.varint();
        if (length < 0) return false;
        this.at += length;
        return this.at <= this.end;
      }
      case 5:
        this.at += 4;
        return this.at <= this.end;
      default:
        return false;
    }
  }
}
