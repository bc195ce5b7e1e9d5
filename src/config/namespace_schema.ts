/**
 * Zod schemas for `shardDistribution.namespaces`.
 *
 * @module
 */
import { z } from "zod";
import { duration, integer, section } from "./_fields.ts";
import { describeValue } from "./_issue_message.ts";
import type { NamespaceConfig } from "./types.ts";
import type { SectionSchema } from "./section_schema.ts";
import { NAMESPACE_NAME_PATTERN as NAME } from "../limits/request_limits.ts";
import { checkCells, checkReplicas, MAX_KEY, MAX_REPLICAS } from "./namespace_checks.ts";
import { checkRange } from "./range_check.ts";
import { rangeSettingsSchema } from "./range_settings.ts";

const LEASE = duration("1s", { exclusive: true });
const ANY_DURATION = duration("0s");

/** An optional `base` duration: absent stays absent (a plain `duration` always has a default). */
function optional(base: typeof LEASE) {
  return z.unknown().optional().transform((input, ctx): number | undefined => {
    if (input === undefined) return undefined;
    const parsed = base.safeParse(input);
    if (parsed.success) return parsed.data;
    for (const issue of parsed.error.issues) {
      ctx.addIssue({ code: "custom", message: issue.message, input });
    }
    return z.NEVER;
  });
}

/** An optional lease of more than 1 s. */
const optionalLease = optional(LEASE);
/** An optional duration of 0 or more. */
const optionalDuration = optional(ANY_DURATION);

const shareError = (issue: { input: unknown }) =>
  `expected a share from 0 to 1 (0.5 is half the executors), got ${describeValue(issue.input)}`;

const positiveError = (issue: { input: unknown }) =>
  `expected a positive number of load units, got ${describeValue(issue.input)}`;

/** `executorCapacity`: most shards and load units per executor (docs/placement.md). */
const capacitySchema = section({
  shards: integer(1, 100_000_000).optional(),
  load: z.number({ error: positiveError }).positive({ error: positiveError })
    .max(Number.MAX_SAFE_INTEGER, { error: positiveError }).optional(),
});

/** `massLoss`: when the brake engages (docs/operations.md, "Mass loss"). */
const massLossSchema = section({
  share: z.number({ error: shareError }).min(0, { error: shareError })
    .max(1, { error: shareError }).optional(),
  window: optionalDuration,
  minLost: integer(1, 1_000_000).optional(),
});

/**
 * One entry of `shardDistribution.namespaces`, read into its kind (fixed,
 * ephemeral or cells) with defaults applied. `shardNum` is required for a
 * fixed namespace and must be absent for an ephemeral one; fields that do not
 * apply to a kind are refused, naming the field.
 *
 * @example Usage
 * ```ts
 * import { namespaceSchema } from "./namespace_schema.ts";
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(namespaceSchema.parse({ name: "orders", type: "fixed", shardNum: 8 }), {
 *   kind: "fixed",
 *   name: "orders",
 *   loadBalancer: "greedy",
 *   ownership: { mode: "available" },
 *   shardNum: 8,
 * });
 * ```
 */
export const namespaceSchema: SectionSchema<NamespaceConfig> = section({
  name: z.string().regex(NAME, {
    error: (issue) =>
      `expected 1 to 128 letters, digits, ".", "_" or "-", starting with a letter or digit, ` +
      `got ${describeValue(issue.input)}`,
  }),
  type: z.enum(["fixed", "ephemeral", "range"]),
  shardNum: integer(1, 10_000_000).optional(),
  loadBalancer: z.enum(["naive", "greedy"]).optional(),
  maxMovesPerPass: integer(0).optional(),
  settleWindow: optionalDuration,
  coldStartWait: optionalDuration,
  minImprovement: z.number().min(0).max(1).optional(),
  shardCooldown: optionalDuration,
  prepareTimeout: optionalDuration,
  maxPreparesPerExecutor: integer(1, 100_000).optional(),
  maxShards: integer(1, 100_000_000).optional(),
  ownership: z.enum(["available", "exclusive"]).default("available"),
  ownershipLease: optionalLease,
  mode: z.enum(["cells"]).optional(),
  pins: z.record(z.string().min(1).max(MAX_KEY), z.string().min(1).max(MAX_KEY)).optional(),
  replicas: integer(1, MAX_REPLICAS).optional(),
  placement: z.enum(["balanced", "shuffle"]).optional(),
  maxOverlap: integer(0, MAX_REPLICAS).optional(),
  zoneKey: z.string().min(1).max(MAX_KEY).optional(),
  maxDrainedShare: z.number({ error: shareError }).min(0, { error: shareError })
    .max(1, { error: shareError }).optional(),
  executorCapacity: capacitySchema.optional(),
  massLoss: massLossSchema.optional(),
  quarantineThreshold: integer(0, 1_000).optional(),
  quarantineWindow: optionalDuration,
  range: rangeSettingsSchema.optional(),
}).superRefine((namespace, ctx) => {
  if (checkRange(namespace, ctx)) return;
  if (namespace.ownershipLease !== undefined && namespace.ownership !== "exclusive") {
    ctx.addIssue({
      code: "custom",
      path: ["ownershipLease"],
      input: namespace.ownershipLease,
      message: "applies only to a namespace with ownership: exclusive",
    });
  }
  checkCells(namespace, ctx);
  checkReplicas(namespace, ctx);
  if (namespace.type === "fixed" && namespace.shardNum === undefined) {
    ctx.addIssue({
      code: "custom",
      path: ["shardNum"],
      input: undefined,
      message: "required for a fixed namespace; expected an integer from 1 to 10000000",
    });
  }
  if (namespace.type === "ephemeral" && namespace.shardNum !== undefined) {
    ctx.addIssue({
      code: "custom",
      path: ["shardNum"],
      input: namespace.shardNum,
      message: "must be absent for an ephemeral namespace, whose shards are created on first use",
    });
  }
  for (const field of ["executorCapacity", "massLoss"] as const) {
    if (namespace.mode !== "cells" || namespace[field] === undefined) continue;
    ctx.addIssue({
      code: "custom",
      path: [field],
      input: namespace[field],
      message: "does not apply to a cells namespace, whose tenants are never moved by load",
    });
  }
  if (namespace.type === "fixed" && namespace.maxShards !== undefined) {
    ctx.addIssue({
      code: "custom",
      path: ["maxShards"],
      input: namespace.maxShards,
      message: "only for an ephemeral namespace; a fixed namespace has exactly shardNum shards",
    });
  }
}).transform((n): NamespaceConfig => {
  const budget = {
    ...(n.maxDrainedShare === undefined ? {} : { maxDrainedShare: n.maxDrainedShare }),
    ...(n.quarantineThreshold === undefined ? {} : { quarantineThreshold: n.quarantineThreshold }),
    ...(n.quarantineWindow === undefined ? {} : { quarantineWindowMs: n.quarantineWindow }),
  };
  if (n.type === "range") {
    return {
      kind: "range",
      name: n.name,
      range: n.range ?? rangeSettingsSchema.parse({}),
      zoneKey: n.zoneKey ?? "zone",
      ...(n.prepareTimeout === undefined ? {} : { prepareTimeoutMs: n.prepareTimeout }),
      ...(n.maxPreparesPerExecutor === undefined
        ? {}
        : { maxPreparesPerExecutor: n.maxPreparesPerExecutor }),
      ...(n.ownership === "exclusive"
        ? {
          ownership: {
            mode: "exclusive" as const,
            ...(n.ownershipLease === undefined ? {} : { leaseMs: n.ownershipLease }),
          },
        }
        : {}),
      ...(n.maxDrainedShare === undefined ? {} : { maxDrainedShare: n.maxDrainedShare }),
      ...(n.massLoss === undefined ? {} : { massLoss: massLoss(n.massLoss) }),
    };
  }
  if (n.mode === "cells") {
    return {
      kind: "cells",
      ...budget,
      name: n.name,
      ...(n.maxShards === undefined ? {} : { maxShards: n.maxShards }),
      pins: n.pins ?? {},
    };
  }
  const replicas = n.replicas ?? 1;
  const sharded = {
    ...budget,
    name: n.name,
    loadBalancer: n.loadBalancer ?? "greedy",
    ...(n.maxMovesPerPass === undefined ? {} : { maxMovesPerPass: n.maxMovesPerPass }),
    ...(n.settleWindow === undefined ? {} : { settleWindowMs: n.settleWindow }),
    ...(n.coldStartWait === undefined ? {} : { coldStartWaitMs: n.coldStartWait }),
    ...(n.minImprovement === undefined ? {} : { minImprovement: n.minImprovement }),
    ...(n.shardCooldown === undefined ? {} : { shardCooldownMs: n.shardCooldown }),
    ...(n.prepareTimeout === undefined ? {} : { prepareTimeoutMs: n.prepareTimeout }),
    ...(n.maxPreparesPerExecutor === undefined
      ? {}
      : { maxPreparesPerExecutor: n.maxPreparesPerExecutor }),
    ...(n.executorCapacity === undefined ? {} : { executorCapacity: capacity(n.executorCapacity) }),
    ...(n.massLoss === undefined ? {} : { massLoss: massLoss(n.massLoss) }),
    ownership: n.ownership === "exclusive"
      ? {
        mode: "exclusive" as const,
        ...(n.ownershipLease === undefined ? {} : { leaseMs: n.ownershipLease }),
      }
      : { mode: "available" as const },
    ...(replicas <= 1 ? {} : {
      replication: n.placement === "shuffle"
        ? {
          replicas,
          zoneKey: n.zoneKey ?? "zone",
          placement: "shuffle" as const,
          maxOverlap: n.maxOverlap ?? replicas - 1,
        }
        : { replicas, zoneKey: n.zoneKey ?? "zone", placement: "balanced" as const },
    }),
  };
  return n.type === "fixed" ? { kind: "fixed", ...sharded, shardNum: n.shardNum ?? 0 } : {
    kind: "ephemeral",
    ...sharded,
    ...(n.maxShards === undefined ? {} : { maxShards: n.maxShards }),
  };
});

function capacity(c: { shards?: number | undefined; load?: number | undefined }) {
  return {
    ...(c.shards === undefined ? {} : { shards: c.shards }),
    ...(c.load === undefined ? {} : { load: c.load }),
  };
}

function massLoss(
  m: { share?: number | undefined; window?: number | undefined; minLost?: number | undefined },
) {
  return {
    ...(m.share === undefined ? {} : { share: m.share }),
    ...(m.window === undefined ? {} : { windowMs: m.window }),
    ...(m.minLost === undefined ? {} : { minLost: m.minLost }),
  };
}

/**
 * `shardDistribution.namespaces`: at least one namespace, names unique.
 *
 * @example Usage
 * ```ts
 * import { namespacesSchema } from "./namespace_schema.ts";
 * import assert from "node:assert/strict";
 *
 * const twice = [{ name: "a", type: "ephemeral" }, { name: "a", type: "ephemeral" }];
 * assert.equal(namespacesSchema.safeParse(twice).success, false);
 * ```
 */
export const namespacesSchema: SectionSchema<NamespaceConfig[]> = z.array(namespaceSchema)
  .min(1)
  .superRefine((namespaces, ctx) => {
    const firstIndex = new Map<string, number>();
    namespaces.forEach(({ name }, index) => {
      const first = firstIndex.get(name);
      if (first === undefined) return void firstIndex.set(name, index);
      ctx.addIssue({
        code: "custom",
        path: [index, "name"],
        input: name,
        message: `duplicate namespace name ${
          JSON.stringify(name)
        }, first used at namespaces[${first}]`,
      });
    });
  });
