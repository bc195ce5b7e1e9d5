/**
 * What every SDK entry point exports alike: the error model (the base class,
 * the option error, the codes and the classifier), the connection and start
 * options shared by the executor, the spectator and the leader selector, and
 * the types of their logging and OpenTelemetry options.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { RETRYABLE_CODES, ShardManagerError } from "./public_errors.ts";
 *
 * assert.equal(RETRYABLE_CODES.UNAVAILABLE, true);
 * assert.equal(new ShardManagerError("closed", { code: "CLOSED" }).retryable, false);
 * ```
 *
 * @module
 */
export {
  InvalidOptionsError,
  RETRYABLE_CODES,
  ShardManagerError,
  type ShardManagerErrorCode,
  type ShardManagerErrorOptions,
} from "./errors.ts";
export { type CallSite, classifyCallError } from "./classify.ts";
export type { ErrorDetail } from "../../wire/error_details.ts";
export type { ConnectionOptions, StartOptions } from "./connection_options.ts";
export type { Logger } from "./logger.ts";
export type { ObservabilityOptions } from "./observability_options.ts";
export type {
  Attributes,
  CounterLike,
  HistogramLike,
  InstrumentOptions,
  MeterLike,
  ObservableGaugeLike,
  ObservableResultLike,
  SpanLike,
  TracerLike,
} from "./telemetry.ts";
