/**
 * `type: range` (key-range namespaces, docs/placement.md "Key ranges") in a
 * namespace entry: the fields that do not apply to one are refused, naming
 * each (`ownership` and `ownershipLease` apply: a range namespace may be
 * exclusive). A `range:` block on another type is refused too.
 *
 * @module
 */
import type { z } from "zod";

/** The fields {@linkcode checkRange} reads. */
interface RangeFields {
  readonly type: string;
  readonly range?: unknown;
  readonly ownership?: string;
  readonly [field: string]: unknown;
}

/** Fields a range namespace may have besides `name`, `type` and `range`. */
const RANGE_FIELDS = new Set([
  "name",
  "type",
  "range",
  "ownership",
  "ownershipLease",
  "prepareTimeout",
  "maxPreparesPerExecutor",
  "zoneKey",
  "maxDrainedShare",
  "massLoss",
]);

/**
 * Adds the issues of a `range` namespace entry; returns true when the entry
 * is a `range` one (whose other rules then do not apply).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { namespaceSchema } from "./namespace_schema.ts";
 *
 * assert.equal(namespaceSchema.safeParse({ name: "keys", type: "range" }).success, true);
 * const result = namespaceSchema.safeParse({ name: "keys", type: "range", shardNum: 8 });
 * assert.match(result.error?.issues[0]?.message ?? "", /does not apply to a range namespace/);
 * ```
 */
export function checkRange(namespace: RangeFields, ctx: z.RefinementCtx): boolean {
  if (namespace.type !== "range") {
    if (namespace.range !== undefined) {
      ctx.addIssue({
        code: "custom",
        path: ["range"],
        input: namespace.range,
        message: "only allowed with type: range",
      });
    }
    return false;
  }
  for (const [field, value] of Object.entries(namespace)) {
    if (value === undefined || RANGE_FIELDS.has(field)) continue;
    ctx.addIssue({
      code: "custom",
      path: [field],
      input: value,
      message: `does not apply to a range namespace, whose keys are hashed onto slices that the ` +
        `range planner splits, merges and places (its settings are under range:)`,
    });
  }
  if (namespace.ownershipLease !== undefined && namespace.ownership !== "exclusive") {
    ctx.addIssue({
      code: "custom",
      path: ["ownershipLease"],
      input: namespace.ownershipLease,
      message: "applies only to a namespace with ownership: exclusive",
    });
  }
  return true;
}
