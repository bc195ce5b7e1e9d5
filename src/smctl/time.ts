/**
 * Protobuf timestamps as smctl shows them: ISO 8601 in JSON, a short UTC time
 * and an age for people.
 *
 * @module
 */
import { formatDuration } from "./duration.ts";

/** A received `google.protobuf.Timestamp` (`seconds` is an int64 string). */
export interface WireTimestamp {
  /** Whole seconds since the epoch, as a decimal string. */
  readonly seconds: string;
  /** Nanoseconds within the second. */
  readonly nanos: number;
}

/**
 * Milliseconds since the epoch, or null when the timestamp is unset (null, or
 * the zero timestamp that proto3 sends for "unknown").
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { timestampMs } from "./time.ts";
 *
 * assert.equal(timestampMs({ seconds: "10", nanos: 500_000_000 }), 10_500);
 * assert.equal(timestampMs(null), null);
 * ```
 */
export function timestampMs(timestamp: WireTimestamp | null | undefined): number | null {
  if (timestamp === null || timestamp === undefined) return null;
  const ms = Number(timestamp.seconds) * 1_000 + Math.floor(timestamp.nanos / 1e6);
  return Number.isFinite(ms) && ms > 0 ? ms : null;
}

/**
 * ISO 8601 text of a time in ms, or null.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { isoTime } from "./time.ts";
 *
 * assert.equal(isoTime(0 + 1_000), "1970-01-01T00:00:01.000Z");
 * assert.equal(isoTime(null), null);
 * ```
 */
export function isoTime(ms: number | null): string | null {
  return ms === null ? null : new Date(ms).toISOString();
}

/**
 * A UTC time for tables, to the second: `2025-03-04 05:06:07Z`; `-` when unknown.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { shortTime } from "./time.ts";
 *
 * assert.equal(shortTime(Date.UTC(2025, 2, 4, 5, 6, 7, 890)), "2025-03-04 05:06:07Z");
 * ```
 */
export function shortTime(ms: number | null): string {
  if (ms === null) return "-";
  return new Date(ms).toISOString().replace("T", " ").replace(/\.\d+Z$/, "Z");
}

/**
 * How long ago `ms` was, seen at `now`: `"3m12s ago"`; `-` when unknown. A
 * time slightly in the future (clock skew) shows as `"0ms ago"`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { ago } from "./time.ts";
 *
 * assert.equal(ago(1_000, 61_000), "1m ago");
 * ```
 */
export function ago(ms: number | null, now: number): string {
  return ms === null ? "-" : `${formatDuration(now - ms)} ago`;
}
