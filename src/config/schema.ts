/**
 * Zod schemas for the YAML configuration, one per section. Each parses the YAML
 * shape (durations as text, YAML key names) into the typed shape of
 * `./types.ts` (milliseconds, `…Ms` names, defaults applied).
 *
 * @module
 */
import { z } from "zod";
import { duration, hostPort, integer, section } from "./_fields.ts";
import { formatDuration } from "../shared/duration.ts";
import { limitsSchema } from "./limits_schema.ts";
import { namespacesSchema } from "./namespace_schema.ts";
import type { SectionSchema } from "./section_schema.ts";
import { leaderStorageParamsSchema, storageParamsSchema } from "./storage_params_schema.ts";
import { securitySchema } from "./security_schema.ts";
import type {
  Config,
  ElectionConfig,
  LogConfig,
  ProcessConfig,
  ServerConfig,
  ShardDistributionConfig,
} from "./types.ts";

export type * from "./types.ts";
export type { SectionSchema } from "./section_schema.ts";
export * from "./namespace_schema.ts";
export * from "./storage_params_schema.ts";
export * from "./security_schema.ts";
export * from "./limits_schema.ts";

/**
 * `shardDistribution.election`; may be omitted. `maxRandomDelay` must be
 * shorter than `leaderPeriod`.
 *
 * @example Usage
 * ```ts
 * import { electionSchema } from "./schema.ts";
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(electionSchema.parse({ leaderPeriod: "30s" }), {
 *   leaderPeriodMs: 30_000,
 *   maxRandomDelayMs: 1_000,
 *   failedElectionCooldownMs: 1_000,
 * });
 * ```
 */
export const electionSchema: SectionSchema<ElectionConfig> = section({
  leaderPeriod: duration("60s", { exclusive: true }),
  maxRandomDelay: duration("1s"),
  failedElectionCooldown: duration("1s"),
}).superRefine((election, ctx) => {
  if (election.maxRandomDelay >= election.leaderPeriod) {
    ctx.addIssue({
      code: "custom",
      path: ["maxRandomDelay"],
      input: election.maxRandomDelay,
      message: `must be shorter than leaderPeriod (${formatDuration(election.leaderPeriod)}), ` +
        `got ${formatDuration(election.maxRandomDelay)}`,
    });
  }
}).transform((election): ElectionConfig => ({
  leaderPeriodMs: election.leaderPeriod,
  maxRandomDelayMs: election.maxRandomDelay,
  failedElectionCooldownMs: election.failedElectionCooldown,
})).prefault({});

/**
 * `shardDistribution.process`; may be omitted.
 *
 * @example Usage
 * ```ts
 * import { processSchema } from "./schema.ts";
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(processSchema.parse(undefined), {
 *   periodMs: 1_000,
 *   heartbeatTtlMs: 2_000,
 *   rebalanceCooldownMs: 100,
 *   maxMovesPerPass: 1_000,
 * });
 * ```
 */
export const processSchema: SectionSchema<ProcessConfig> = section({
  period: duration("1s", { exclusive: true }),
  heartbeatTTL: duration("2s", { exclusive: true }),
  rebalanceCooldown: duration("100ms"),
  maxMovesPerPass: integer(0).default(1_000),
}).transform((process): ProcessConfig => ({
  periodMs: process.period,
  heartbeatTtlMs: process.heartbeatTTL,
  rebalanceCooldownMs: process.rebalanceCooldown,
  maxMovesPerPass: process.maxMovesPerPass,
})).prefault({});

/**
 * `shardDistribution`: namespaces and both stores are required.
 *
 * @example Usage
 * ```ts
 * import { shardDistributionSchema } from "./schema.ts";
 * import assert from "node:assert/strict";
 *
 * const store = { storageParams: { endpoints: ["localhost:2379"] } };
 * const config = shardDistributionSchema.parse({
 *   namespaces: [{ name: "a", type: "ephemeral" }],
 *   leaderStore: store,
 *   store,
 * });
 * assert.equal(config.leaderStore?.storageParams.prefix, "leader");
 * assert.equal(config.store?.storageParams.prefix, "store");
 * ```
 */
export const shardDistributionSchema: SectionSchema<ShardDistributionConfig> = section({
  election: electionSchema,
  namespaces: namespacesSchema,
  leaderStore: section({ storageParams: leaderStorageParamsSchema }).optional(),
  store: section({ storageParams: storageParamsSchema("store") }).optional(),
  embedded: section({ dataDir: z.string().min(1).default(".data/embedded") }).optional(),
  process: processSchema,
  history: section({
    maxAge: duration("24h", { exclusive: true }),
    maxEvents: integer(1, 1_000_000).default(2_000),
  }).transform((h) => ({ maxAgeMs: h.maxAge, maxEvents: h.maxEvents })).optional(),
}).superRefine((sd, ctx) => {
  sd.namespaces.forEach((namespace, index) => {
    if (namespace.kind === "cells" || namespace.kind === "range") return;
    if (namespace.ownership.mode !== "exclusive") return;
    const lease = namespace.ownership.leaseMs;
    if (lease === undefined || lease >= sd.process.heartbeatTtlMs) return;
    ctx.addIssue({
      code: "custom",
      path: ["namespaces", index, "ownershipLease"],
      input: lease,
      message:
        `must be at least process.heartbeatTTL (${
          formatDuration(sd.process.heartbeatTtlMs)
        }), got ${formatDuration(lease)}: executors would stop their shards while the service ` +
        "still counts them alive, leaving those shards unserved",
    });
  });
  if (sd.embedded) {
    for (const key of ["store", "leaderStore"] as const) {
      if (sd[key]) {
        ctx.addIssue({
          code: "custom",
          path: [key],
          input: sd[key],
          message: "not allowed with embedded; use either etcd (store and leaderStore) or embedded",
        });
      }
    }
    return;
  }
  for (const key of ["store", "leaderStore"] as const) {
    if (!sd[key]) {
      ctx.addIssue({
        code: "custom",
        path: [key],
        input: undefined,
        message: "required; expected a mapping (or configure embedded instead of etcd)",
      });
    }
  }
}).transform((sd): ShardDistributionConfig => {
  const { leaderStore, store, embedded, ...rest } = sd;
  return embedded ? { ...rest, embedded } : { ...rest, leaderStore: leaderStore!, store: store! };
});

/**
 * `server`; may be omitted.
 *
 * @example Usage
 * ```ts
 * import { serverSchema } from "./schema.ts";
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(serverSchema.parse(undefined), {
 *   grpcAddress: "127.0.0.1:7943",
 *   httpAddress: "127.0.0.1:7944",
 *   dashboardActions: false,
 * });
 * ```
 */
export const serverSchema: SectionSchema<ServerConfig> = section({
  grpcAddress: hostPort().default("127.0.0.1:7943"),
  httpAddress: hostPort().default("127.0.0.1:7944"),
  dashboardActions: z.boolean().default(false),
  instanceName: z.string().min(1).max(253).optional(),
}).prefault({});

/**
 * `log`; may be omitted.
 *
 * @example Usage
 * ```ts
 * import { logSchema } from "./schema.ts";
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(logSchema.parse({ level: "debug" }), { level: "debug" });
 * ```
 */
export const logSchema: SectionSchema<LogConfig> = section({
  level: z.enum(["debug", "info", "warn", "error"]).default("info"),
}).prefault({});

/**
 * The whole configuration file. Parse with the package's error map (as
 * `parseConfig` does) for messages that name the offending value.
 *
 * @example Usage
 * ```ts
 * import { configSchema } from "./schema.ts";
 * import assert from "node:assert/strict";
 *
 * const store = { storageParams: { endpoints: ["localhost:2379"] } };
 * const config = configSchema.parse({
 *   shardDistribution: { namespaces: [{ name: "a", type: "ephemeral" }], leaderStore: store, store },
 * });
 * assert.equal(config.log.level, "info");
 * assert.equal(config.shardDistribution.process.heartbeatTtlMs, 2_000);
 * ```
 */
export const configSchema: SectionSchema<Config> = section({
  shardDistribution: shardDistributionSchema,
  server: serverSchema,
  log: logSchema,
  limits: limitsSchema,
  security: securitySchema.optional(),
}).transform(({ security, ...config }): Config => security ? { ...config, security } : config);
