/**
 * Zod schemas for `shardDistribution.namespaces`.
 *
 * @module
 */
import { z } from "zod";
import { integer, section } from "./_fields.ts";
import { describeValue } from "./_issue_message.ts";
import type { NamespaceConfig } from "./types.ts";
import type { SectionSchema } from "./section_schema.ts";

/** Longest tenant or cell id in `pins` (the limit of a shard key and an executor id). */
const MAX_KEY = 256;

const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;

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
  mode: z.enum(["cells"]).optional(),
  pins: z.record(z.string().min(1).max(MAX_KEY), z.string().min(1).max(MAX_KEY)).optional(),
}).superRefine((namespace, ctx) => {
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
}).transform((
  { shardNum, maxMovesPerPass, loadBalancer, mode, pins, ...namespace },
): NamespaceConfig => ({
  ...namespace,
  ...(shardNum === undefined ? {} : { shardNum }),
  loadBalancer: loadBalancer ?? "greedy",
  ...(maxMovesPerPass === undefined ? {} : { maxMovesPerPass }),
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
