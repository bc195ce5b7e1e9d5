/**
 * Request limits and the validators that enforce them.
 *
 * @module
 */
export * from "./request_limits.ts";
export * from "./validate_request.ts";
