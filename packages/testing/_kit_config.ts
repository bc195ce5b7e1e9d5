/**
 * The configuration of the kit's Shard Manager: the embedded store in a
 * directory of its own, loopback listeners on port 0, and timings short
 * enough for tests; and a namespace definition with the kit's test defaults.
 *
 * @module
 */
import { type Config, parseConfig } from "../../src/config/mod.ts";

/** A namespace definition, as YAML or the API takes it: `{ name, type, shardNum, ... }`. */
export interface NamespaceDefinition {
  /** The namespace's name. */
  readonly name: string;
  /** `fixed` or `ephemeral`, and every other key of a namespace definition (docs/operations.md). */
  readonly [key: string]: unknown;
}

/** Timings of the kit's service, in ms. */
export interface KitTimings {
  /** An executor unheard of for this long is lost (`process.heartbeatTTL`). */
  readonly heartbeatTtlMs: number;
  /** Time between the leader's periodic rebalance passes (`process.period`). */
  readonly periodMs: number;
}

/** The service's configuration for a kit on `dataDir`. */
export function kitConfig(dataDir: string, timings: KitTimings): Config {
  for (const [name, value] of Object.entries(timings)) {
    if (!(Number.isInteger(value) && value >= 10 && value <= 600_000)) {
      throw new RangeError(`${name} must be a whole number of ms from 10 to 600000, got ${value}`);
    }
  }
  const config = parseConfig(
    `shardDistribution:
  namespaces: [{ name: kit-placeholder, type: fixed, shardNum: 1 }]
  embedded: { dataDir: ${JSON.stringify(dataDir)} }
  process:
    period: ${timings.periodMs}ms
    heartbeatTTL: ${timings.heartbeatTtlMs}ms
    rebalanceCooldown: 0ms
  election: { leaderPeriod: 1h, maxRandomDelay: 0ms, failedElectionCooldown: 20ms }
server: { grpcAddress: 127.0.0.1:0, httpAddress: 127.0.0.1:0 }
`,
    "test kit",
  );
  // A file must name a namespace; the kit creates all of its own through the API (so that
  // freeze can update them), hence none from the file.
  const sd = config.shardDistribution;
  return { ...config, shardDistribution: { ...sd, namespaces: [], namespaceSpecs: [] } };
}

/**
 * `definition` with the kit's defaults where it says nothing: balancing starts
 * as soon as an executor joins (`settleWindow: 0s`), a new namespace places
 * its shards without waiting for more executors (`coldStartWait: 0s`) and a
 * shard may move again at once (`shardCooldown: 0s`). Cells namespaces have
 * none of them.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { withTestDefaults } from "./_kit_config.ts";
 *
 * assert.deepEqual(withTestDefaults({ name: "a", type: "fixed", shardNum: 2 }), {
 *   settleWindow: "0s",
 *   coldStartWait: "0s",
 *   shardCooldown: "0s",
 *   name: "a",
 *   type: "fixed",
 *   shardNum: 2,
 * });
 * ```
 */
export function withTestDefaults(definition: NamespaceDefinition): NamespaceDefinition {
  if (typeof definition?.name !== "string") {
    throw new TypeError(
      `A namespace definition needs a name, e.g. { name: "orders", type: "fixed", shardNum: 4 }; got ${
        JSON.stringify(definition)
      }`,
    );
  }
  if (definition.mode === "cells") return definition;
  return { settleWindow: "0s", coldStartWait: "0s", shardCooldown: "0s", ...definition };
}
