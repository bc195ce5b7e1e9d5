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
 * import { timestampMs } from "./time.ts";
 *
 * console.assert(timestampMs({ seconds: "10", nanos: 500_000_000 }) === 10_500);
 * console.assert(timestampMs(null) === null);
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
 * import { isoTime } from "./time.ts";
 *
 * console.assert(isoTime(0 + 1_000) === "1970-01-01T00:00:01.000Z");
 * console.assert(isoTime(null) === null);
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
 * import { shortTime } from "./time.ts";
 *
 * console.assert(shortTime(Date.UTC(2025, 2, 4, 5, 6, 7, 890)) === "2025-03-04 05:06:07Z");
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
 * import { ago } from "./time.ts";
 *
 * console.assert(ago(1_000, 61_000) === "1m ago");
 * ```
 */
export function ago(ms: number | null, now: number): string {
  return ms === null ? "-" : `${formatDuration(now - ms)} ago`;
}
