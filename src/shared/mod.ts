/**
 * Pure code that the server and the client side (smctl, the SDKs) both import:
 * it imports nothing else from `src/` and no package (a test checks).
 * Durations as people write them: {@linkcode parseDuration} (the
 * configuration's Go syntax, or smctl's command-line syntax) and
 * {@linkcode formatDuration} (exact, or short for people); executor
 * capacities; and for key-range namespaces the key hash
 * ({@linkcode hashKeyInto}, {@linkcode keyHash}), the lookup of a point's
 * range ({@linkcode PointIndex}, {@linkcode RangeIndex}), how a point is
 * written ({@linkcode pointHex}) and the top-keys sketch
 * ({@linkcode SpaceSaving}).
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { formatDuration, parseDuration } from "./mod.ts";
 *
 * assert.equal(parseDuration("1m30s"), 90_000);
 * assert.equal(formatDuration(parseDuration("2m", { syntax: "command-line" })), "2m");
 * ```
 *
 * @module
 */
export * from "./duration.ts";
export * from "./capacity.ts";
export * from "./key_hash.ts";
export * from "./point_index.ts";
export * from "./point_hex.ts";
export * from "./space_saving.ts";
