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

const LEASE = duration("1s", { exclusive: true });

/** An optional duration: absent stays absent (a plain `duration` always has a default). */
const optionalLease = z.unknown().optional().transform((input, ctx): number | undefined => {
  if (input === undefined) return undefined;
  const parsed = LEASE.safeParse(input);
  if (parsed.success) return parsed.data;
  for (const issue of parsed.error.issues) {
    ctx.addIssue({ code: "custom", message: issue.message, input });
  }
  return z.NEVER;
});

/** Longest tenant or cell id in `pins` (the limit of a shard key and an executor id). */
const MAX_KEY = 256;

/**
 * One entry of `shardDistribution.namespaces`. `shardNum` is required for a
 * fixed namespace and must be absent for an ephemeral one.
 *
 * @example Usage
 * ```ts
 * import { namespaceSchema } from "./namespace_schema.ts";
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(namespaceSchema.parse({ name: "orders", type: "fixed", shardNum: 8 }), {
 *   name: "orders",
 *   type: "fixed",
 *   shardNum: 8,
 *   loadBalancer: "greedy",
 * });
 * ```
 */
export const namespaceSchema: SectionSchema<NamespaceConfig> = section({
  name: z.string().regex(NAME, {
    error: (issue) =>
      `expected 1 to 128 letters, digits, ".", "_" or "-", starting with a letter or digit, ` +
      `got ${describeValue(issue.input)}`,
  }),
  type: z.enum(["fixed", "ephemeral"]),
  shardNum: integer(1, 10_000_000).optional(),
  loadBalancer: z.enum(["naive", "greedy"]).optional(),
  maxMovesPerPass: integer(0).optional(),
  maxShards: integer(1, 100_000_000).optional(),
  ownership: z.enum(["available", "exclusive"]).default("available"),
  ownershipLease: optionalLease,
  mode: z.enum(["cells"]).optional(),
  pins: z.record(z.string().min(1).max(MAX_KEY), z.string().min(1).max(MAX_KEY)).optional(),
}).superRefine((namespace, ctx) => {
  if (namespace.ownershipLease !== undefined && namespace.ownership !== "exclusive") {
    ctx.addIssue({
      code: "custom",
      path: ["ownershipLease"],
      input: namespace.ownershipLease,
      message: "applies only to a namespace with ownership: exclusive",
    });
  }
  checkCells(namespace, ctx);
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
  if (namespace.type === "fixed" && namespace.maxShards !== undefined) {
    ctx.addIssue({
      code: "custom",
      path: ["maxShards"],
      input: namespace.maxShards,
      message: "only for an ephemeral namespace; a fixed namespace has exactly shardNum shards",
    });
  }
}).transform((
  {
    shardNum,
    maxMovesPerPass,
    maxShards,
    ownership,
    ownershipLease,
    loadBalancer,
    mode,
    pins,
    ...namespace
  },
): NamespaceConfig => ({
  ...namespace,
  // Absent means available, so configurations written before the field compare equal.
  ...(ownership === "exclusive" ? { ownership } : {}),
  ...(shardNum === undefined ? {} : { shardNum }),
  loadBalancer: loadBalancer ?? "greedy",
  ...(maxMovesPerPass === undefined ? {} : { maxMovesPerPass }),
  ...(maxShards === undefined ? {} : { maxShards }),
  ...(ownershipLease === undefined ? {} : { ownershipLeaseMs: ownershipLease }),
  ...(mode === undefined ? {} : { mode }),
  ...(pins === undefined ? {} : { pins }),
}));

/** The fields {@linkcode checkCells} reads. */
interface CellsFields {
  readonly type: string;
  readonly mode?: "cells" | undefined;
  readonly pins?: Record<string, string> | undefined;
  readonly loadBalancer?: string | undefined;
  readonly maxMovesPerPass?: number | undefined;
  readonly ownership?: string | undefined;
}

/**
 * `mode: cells` is an ephemeral namespace whose placement is sticky: no load
 * balancer runs, so choosing one or a move budget is a mistake; `pins` only
 * mean something in that mode.
 */
function checkCells(namespace: CellsFields, ctx: z.RefinementCtx): void {
  const issue = (path: string, input: unknown, message: string) =>
    ctx.addIssue({ code: "custom", path: [path], input, message });
  if (namespace.mode !== "cells") {
    if (namespace.pins !== undefined) {
      issue("pins", namespace.pins, "only allowed with mode: cells");
    }
    return;
  }
  if (namespace.type !== "ephemeral") {
    issue(
      "mode",
      namespace.mode,
      "cells requires type: ephemeral (tenants are created on first use)",
    );
  }
  if (namespace.loadBalancer !== undefined) {
    issue(
      "loadBalancer",
      namespace.loadBalancer,
      "must be absent with mode: cells, which never balances",
    );
  }
  if (namespace.maxMovesPerPass !== undefined) {
    issue(
      "maxMovesPerPass",
      namespace.maxMovesPerPass,
      "must be absent with mode: cells, which never balances (move tenants with smctl shard move)",
    );
  }
  if (namespace.ownership === "exclusive") {
    issue(
      "ownership",
      namespace.ownership,
      "exclusive is not supported with mode: cells yet (tenant moves do not hand over); " +
        "use the default, available",
    );
  }
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
