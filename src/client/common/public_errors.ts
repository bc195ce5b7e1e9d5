/**
 * The error model every SDK entry point exports: the base class, the option
 * error, the codes and the classifier.
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
