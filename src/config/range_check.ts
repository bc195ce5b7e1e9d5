/**
 * `type: range` (key-range namespaces, issue 43) in a namespace entry: its
 * `range:` settings are read and checked, and then the namespace is refused,
 * because the service does not serve key ranges yet (the planner is built,
 * the wire, store and SDKs are not). A `range:` block on another type is
 * refused too.
 *
 * @module
 */
import type { z } from "zod";

/** The fields {@linkcode checkRange} reads. */
interface RangeFields {
  readonly type: string;
  readonly range?: unknown;
}

/**
 * Adds the issues of a `range` namespace entry; returns true when the entry
 * is a `range` one (whose other rules then do not apply).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { namespaceSchema } from "./namespace_schema.ts";
 *
 * const result = namespaceSchema.safeParse({ name: "keys", type: "range" });
 * assert.match(result.error?.issues[0]?.message ?? "", /not yet served/);
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
  ctx.addIssue({
    code: "custom",
    path: ["type"],
    input: namespace.type,
    message: "range is not yet served: key-range namespaces are being built (the planner is, " +
      "the wire, store and SDKs are not; range: settings are checked all the same). Use type: fixed or " +
      "ephemeral for now",
  });
  return true;
}
