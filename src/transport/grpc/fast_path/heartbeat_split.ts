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
import { ProtoCursor } from "./_proto_cursor.ts";

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
 * `undefined` when they do not, the top-level records are malformed, or a tag
 * or length is one the cursor does not take (2^31 or more), in which case the
 * caller decodes the whole message as usual.
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
  const c = new ProtoCursor(bytes, bytes.length);
  let start = -1, end = -1;
  while (c.at < bytes.length) {
    const recordStart = c.at;
    const tag = c.varint();
    if (tag < 0) return undefined;
    const field = Math.floor(tag / 8), wireType = tag & 7;
    // Groups (3, 4) and invalid wire types cannot be skipped: left to the full decoder.
    if (field === 0 || !c.skip(wireType)) return undefined;
    if (field !== REPORTS_FIELD) continue;
    if (wireType !== 2) return undefined;
    if (start === -1) start = recordStart;
    else if (end !== recordStart) return undefined; // not one run
    end = c.at;
  }
  return start === -1 ? { start: bytes.length, end: bytes.length } : { start, end };
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
