/**
 * Reads a heartbeat's report entries (`map<string, ShardStatusReport>`,
 * field 4, as heartbeat_split.ts keeps them) straight from their bytes into
 * the values protobufjs would decode, without a message object per entry.
 * A heartbeat whose reports changed (the first after an executor is given
 * shards, say: 1,000 of them at once) was decoded by protobufjs's
 * `decode`/`toObject` at ~1 µs per report on the instance's thread.
 *
 * Keys that are shard numbers come back as the process's shared strings
 * (core/index_keys.ts), so a fixed namespace's keys are never made again.
 * Anything this reader does not cover (a key that is not ASCII, an enum value
 * outside 0..2^31-1, a wire type it does not expect, a truncated entry, a
 * report with top keys)
 * returns `undefined`, and the caller decodes with protobufjs as before:
 * both give the same values, a property test holds them equal.
 *
 * @module
 */
import { indexKey } from "../../../core/index_keys.ts";
import { ProtoCursor } from "./_proto_cursor.ts";

/** One report as the Heartbeat handler passes it on: enum names for known statuses, numbers otherwise. */
export interface WireReport {
  readonly status: string | number;
  readonly load: number;
  /** `failed_starts` (field 3), only when above 0. */
  readonly failedStarts?: number;
}

/** ShardStatus names by number (executor.proto). */
const SHARD_STATUSES = [
  "SHARD_STATUS_INVALID",
  "SHARD_STATUS_READY",
  "SHARD_STATUS_DONE",
  "SHARD_STATUS_PREPARED",
  "SHARD_STATUS_NOT_RUNNING",
];

/** Shared report values by status number and load (most reports repeat a few). */
const SHARED_LIMIT = 4_096;
const shared = new Map<number, Map<number, WireReport>>();
let sharedCount = 0;

function report(status: number, load: number): WireReport {
  // -0 and 0 are one key of a Map: -0 is never shared.
  if (Object.is(load, -0)) return Object.freeze({ status: SHARD_STATUSES[status] ?? status, load });
  let byLoad = shared.get(status);
  const known = byLoad?.get(load);
  if (known) return known;
  const value = Object.freeze({ status: SHARD_STATUSES[status] ?? status, load });
  if (sharedCount < SHARED_LIMIT) {
    if (!byLoad) shared.set(status, byLoad = new Map());
    byLoad.set(load, value);
    sharedCount++;
  }
  return value;
}

/**
 * The report entries in `bytes` (a run of field-4 records), or `undefined`
 * when they hold something this reader leaves to protobufjs.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { readReportEntries } from "./report_entries_reader.ts";
 *
 * // One entry: key "7", value { status: READY (1), shard_load: 0.5 }.
 * const load = new Uint8Array(new Float64Array([0.5]).buffer);
 * const value = [0x08, 1, 0x11, ...load];
 * const entry = [0x0a, 1, 0x37, 0x12, value.length, ...value];
 * const reports = readReportEntries(Uint8Array.from([0x22, entry.length, ...entry]));
 * assert.deepEqual(reports, new Map([["7", { status: "SHARD_STATUS_READY", load: 0.5 }]]));
 * assert.equal(readReportEntries(Uint8Array.of(0x22, 9, 0x0a)), undefined); // truncated
 * ```
 */
export function readReportEntries(bytes: Uint8Array): Map<string, WireReport> | undefined {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const c = new ProtoCursor(bytes, bytes.length);
  const out = new Map<string, WireReport>();
  while (c.at < bytes.length) {
    if (c.varint() !== 0x22) return undefined; // field 4, length-delimited
    const length = c.varint();
    if (length < 0 || c.at + length > bytes.length) return undefined;
    const end = c.at + length;
    let key = "";
    let value: WireReport | undefined;
    const entry = new ProtoCursor(bytes, end);
    entry.at = c.at;
    while (entry.at < end) {
      // protobufjs picks a field by its number alone: a known number with another wire type is left to it.
      const tag = entry.varint();
      if (tag === 0x0a) { // key
        const size = entry.varint();
        if (size < 0 || entry.at + size > end) return undefined;
        const text = asciiKey(bytes, entry.at, entry.at + size);
        if (text === undefined) return undefined;
        key = text;
        entry.at += size;
      } else if (tag === 0x12) { // value: a ShardStatusReport; a second one replaces the first
        const size = entry.varint();
        if (size < 0 || entry.at + size > end) return undefined;
        value = readValue(new ProtoCursor(bytes, entry.at + size), entry.at, view);
        if (value === undefined) return undefined;
        entry.at += size;
      } else if (tag < 8 || tag >>> 3 <= 2 || !entry.skip(tag & 7)) return undefined;
    }
    // An entry without a value decodes to null in protobufjs: left to it.
    if (entry.at !== end || value === undefined) return undefined;
    out.set(key, value);
    c.at = end;
  }
  return out;
}

/** One ShardStatusReport from `start` to the cursor's end. */
function readValue(c: ProtoCursor, start: number, view: DataView): WireReport | undefined {
  c.at = start;
  let status = 0;
  let load = 0;
  let failedStarts = 0;
  while (c.at < c.end) {
    const tag = c.varint();
    if (tag === 0x08) {
      status = c.varint();
      if (status < 0) return undefined;
    } else if (tag === 0x18) { // failed_starts (uint32)
      failedStarts = c.varint();
      if (failedStarts < 0) return undefined;
    } else if (tag === 0x11) {
      if (c.at + 8 > c.end) return undefined;
      load = view.getFloat64(c.at, true);
      c.at += 8;
    } else if (tag < 8 || tag >>> 3 <= 4 || !c.skip(tag & 7)) {
      // Field 4 (`top_keys`, key-range namespaces) is left to protobufjs, which reads its keys.
      return undefined;
    }
  }
  if (c.at !== c.end) return undefined;
  if (failedStarts === 0) return report(status, load);
  return Object.freeze({ status: SHARD_STATUSES[status] ?? status, load, failedStarts });
}

/** The key's text when every byte is ASCII: a shard number's shared string, else a new one. */
function asciiKey(bytes: Uint8Array, start: number, end: number): string | undefined {
  let number = 0;
  let numeric = end > start && end - start <= 15 && (bytes[start] !== 0x30 || end - start === 1);
  for (let i = start; i < end; i++) {
    const byte = bytes[i]!;
    if (byte > 0x7f) return undefined;
    if (byte < 0x30 || byte > 0x39) numeric = false;
    else number = number * 10 + (byte - 0x30);
  }
  if (numeric) return indexKey(number);
  let text = "";
  for (let i = start; i < end; i++) text += String.fromCharCode(bytes[i]!);
  return text;
}
