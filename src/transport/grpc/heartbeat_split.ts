/**
 * A heartbeat's shard reports kept apart from the rest of the request. Most
 * heartbeats repeat the previous one, and decoding a thousand reports into
 * objects was most of what a heartbeat cost (BENCHMARKS.md, "Shards per
 * namespace"). The Heartbeat deserializer here decodes every field but
 * `shard_status_reports`; that field's bytes travel with the request
 * (`reportsBytes`), and its entries are decoded only when ingestion asks for
 * them, which it does only when the bytes differ from the last accepted ones.
 *
 * @module
 */
import { Buffer } from "node:buffer";
import type * as grpc from "@grpc/grpc-js";

/** Field number of `HeartbeatRequest.shard_status_reports` (executor.proto). */
const REPORTS_FIELD = 4;

/** Where a request's report entries lie: one contiguous run of field-4 records. */
export interface ReportsSpan {
  /** Offset of the first entry's tag (equal to `end` when there are none). */
  readonly start: number;
  /** Offset just past the last entry. */
  readonly end: number;
}

/**
 * Finds the report entries of an encoded `HeartbeatRequest`: their span when
 * they form one run (every encoder we know writes a map's entries together),
 * `undefined` when they do not or the top-level records are malformed, in
 * which case the caller decodes the whole message as usual.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { reportsSpan } from "./heartbeat_split.ts";
 *
 * // namespace "n" (field 1), then one report entry (field 4, two bytes of payload).
 * const bytes = Uint8Array.of(0x0a, 1, 0x6e, 0x22, 2, 0x0a, 0);
 * assert.deepEqual(reportsSpan(bytes), { start: 3, end: 7 });
 * assert.equal(reportsSpan(Uint8Array.of(0x22, 9)), undefined); // runs past the end
 * ```
 */
export function reportsSpan(bytes: Uint8Array): ReportsSpan | undefined {
  let at = 0;
  let start = -1, end = -1;
  while (at < bytes.length) {
    const recordStart = at;
    const tag = readVarint(bytes, at);
    if (tag < 0) return undefined;
    at = varintEnd;
    const field = Math.floor(tag / 8), wireType = tag & 7;
    if (field === 0) return undefined;
    switch (wireType) {
      case 0: {
        const next = skipVarint(bytes, at); // int64 values may exceed what a number holds
        if (next === undefined) return undefined;
        at = next;
        break;
      }
      case 1:
        at += 8;
        break;
      case 2: {
        const length = readVarint(bytes, at);
        if (length < 0) return undefined;
        at = varintEnd + length;
        break;
      }
      case 5:
        at += 4;
        break;
      default:
        return undefined; // groups (3, 4) and invalid types: leave it to the full decoder
    }
    if (at > bytes.length) return undefined;
    if (field !== REPORTS_FIELD) continue;
    if (wireType !== 2) return undefined;
    if (start === -1) start = recordStart;
    else if (end !== recordStart) return undefined; // not one run
    end = at;
  }
  return start === -1 ? { start: bytes.length, end: bytes.length } : { start, end };
}

function skipVarint(bytes: Uint8Array, at: number): number | undefined {
  for (let i = 0; i < 10; i++) {
    const byte = bytes[at + i];
    if (byte === undefined) return undefined;
    if (byte < 0x80) return at + i + 1;
  }
  return undefined;
}

/** Where the last varint {@linkcode readVarint} read ended (no object per varint: a heartbeat has thousands). */
let varintEnd = 0;

/** A tag or length at `at` (its end in `varintEnd`): -1 when it does not end or exceeds a safe integer. */
function readVarint(bytes: Uint8Array, at: number): number {
  let value = 0, scale = 1;
  for (let i = 0; i < 10; i++) {
    const byte = bytes[at + i];
    if (byte === undefined) return -1;
    value += (byte & 0x7f) * scale;
    if (byte < 0x80) {
      varintEnd = at + i + 1;
      return value <= Number.MAX_SAFE_INTEGER ? value : -1;
    }
    scale *= 128;
  }
  return -1;
}

/** What a split Heartbeat request carries besides its decoded fields. */
export interface SplitReports {
  /** The report entries as sent (a copy): equal bytes, equal reports. */
  readonly bytes: Uint8Array;
  /** Decodes the entries (`shardStatusReports` as the full decoder gives it); throws if malformed. */
  readonly decode: () => Record<string, unknown>;
}

const SPLIT = Symbol("heartbeat reports, still encoded");

/**
 * The encoded reports of a request this module's deserializer decoded, or
 * `undefined` for one decoded whole (its `shardStatusReports` is then complete).
 */
export function splitReportsOf(request: object): SplitReports | undefined {
  return (request as { [SPLIT]?: SplitReports })[SPLIT];
}

/**
 * A copy of `definition` whose `method` deserializer leaves the report entries
 * encoded (see {@linkcode splitReportsOf}); the request's `shardStatusReports`
 * is then empty. Requests whose entries are not one run are decoded whole.
 */
export function splitHeartbeatReports<T extends grpc.ServiceDefinition>(
  definition: T,
  method: string,
): T {
  const original = definition[method];
  if (!original) throw new TypeError(`No method ${method} in the service definition`);
  const deserialize = (bytes: Buffer) => original.requestDeserialize(bytes) as object;
  const requestDeserialize = (bytes: Buffer): object => {
    const span = reportsSpan(bytes);
    if (!span || span.start === span.end) return deserialize(bytes);
    const rest = Buffer.concat([bytes.subarray(0, span.start), bytes.subarray(span.end)]);
    const request = deserialize(rest);
    const entries = bytes.subarray(span.start, span.end);
    const split: SplitReports = {
      bytes: new Uint8Array(entries), // a copy: the request buffer goes with the request
      decode: () =>
        (deserialize(entries) as { shardStatusReports: Record<string, unknown> })
          .shardStatusReports,
    };
    Object.defineProperty(request, SPLIT, { value: split, enumerable: false });
    return request;
  };
  return { ...definition, [method]: { ...original, requestDeserialize } };
}
