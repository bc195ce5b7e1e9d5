/**
 * A namespace as the wire lists it (`ListNamespaces`' `NamespaceConfig`, the
 * dashboard's namespace), derived from its policy in this one place.
 *
 * @module
 */
import type { NamespacePolicy } from "../policy/namespace_policy.ts";
import type { NamespaceInfo } from "./views.ts";

/**
 * The wire's view of the namespace `policy` was read for: a cells namespace
 * is `ephemeral`, and only a fixed one has a shard count.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { policyOf } from "../policy/_testing.ts";
 * import { namespaceInfoOf } from "./namespace_info.ts";
 *
 * const fixed = policyOf({
 *   kind: "fixed",
 *   name: "orders",
 *   shardNum: 8,
 *   loadBalancer: "greedy",
 *   ownership: { mode: "available" },
 * });
 * assert.deepEqual(namespaceInfoOf(fixed), { name: "orders", type: "fixed", shardNum: 8, mode: "onboarded" });
 * const cells = policyOf({ kind: "cells", name: "tenants", pins: {} });
 * assert.deepEqual(namespaceInfoOf(cells), { name: "tenants", type: "ephemeral", shardNum: 0, mode: "onboarded" });
 * ```
 */
export function namespaceInfoOf(policy: NamespacePolicy): NamespaceInfo {
  const { keys } = policy;
  return {
    name: policy.name,
    type: keys.kind === "fixed" ? "fixed" : "ephemeral",
    shardNum: keys.kind === "fixed" ? keys.shardNum : 0,
    mode: "onboarded",
  };
}
