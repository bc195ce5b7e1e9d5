/**
 * The service configuration: a YAML file validated into a typed {@linkcode Config}
 * with defaults applied and durations in milliseconds. Invalid files raise a
 * {@linkcode ConfigError} naming the YAML path and line of every issue.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { loadConfig } from "./mod.ts";
 *
 * const config = await loadConfig(new URL("../../config/dev.yaml", import.meta.url));
 * assert.deepEqual(
 *   config.shardDistribution.namespaces.map((namespace) => namespace.name),
 *   ["my-fixed-namespace", "my-ephemeral-namespace"],
 * );
 * ```
 *
 * @module
 */
export * from "../shared/duration.ts";
export * from "./errors.ts";
export * from "./load.ts";
export * from "./namespace_definition.ts";
export * from "./schema.ts";
