/**
 * Roles and which one each RPC needs. Pure: no I/O.
 *
 * | role        | may call                                                             |
 * | ----------- | -------------------------------------------------------------------- |
 * | `spectator` | the read-only RPCs (`GetShardOwner`, `WatchNamespaceState`, ...)      |
 * | `executor`  | `Heartbeat`, `WatchExecutorAssignment` (only as itself when the identity is bound to an executor) |
 * | `operator`  | every RPC of `ShardDistributorAPI`, reads included                    |
 *
 * @module
 */

import type { SecurityRole } from "../config/types.ts";

/** A role an identity can hold: `spectator`, `executor` or `operator`. */
export type Role = SecurityRole;

/** Every role, in the order the documentation lists them. */
export const ROLES: readonly Role[] = ["spectator", "executor", "operator"];

/** The RPCs that only read state; a spectator may call them. */
export const READ_METHODS: ReadonlySet<string> = new Set([
  "GetShardOwner",
  "WatchNamespaceState",
  "InspectShard",
  "GetNamespaceState",
  "GetExecutorState",
  "ListNamespaces",
  "GetDrainedShards",
  "ListExecutorDrains",
  "CanStopExecutors",
  "ListLeaders",
  "GetNamespaceDefinition",
  "GetBrake",
]);

/** The executors' RPC. */
export const HEARTBEAT_METHOD = "Heartbeat";

/** The RPCs an executor makes about itself (its request names its `executor_id`). */
export const EXECUTOR_METHODS: ReadonlySet<string> = new Set([
  HEARTBEAT_METHOD,
  "WatchExecutorAssignment",
]);

/**
 * The role an RPC needs: `spectator` for reads, `executor` for `Heartbeat` and
 * `WatchExecutorAssignment`, `operator` for everything else (so an RPC added
 * later is closed by default).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { requiredRole } from "./roles.ts";
 *
 * assert.equal(requiredRole("GetShardOwner"), "spectator");
 * assert.equal(requiredRole("DrainShards"), "operator");
 * assert.equal(requiredRole("WatchExecutorAssignment"), "executor");
 * ```
 */
export function requiredRole(method: string): Role {
  if (EXECUTOR_METHODS.has(method)) return "executor";
  return READ_METHODS.has(method) ? "spectator" : "operator";
}

/**
 * Whether `roles` allow a call that needs `required`. An operator may also
 * read; no other role implies another.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { grants } from "./roles.ts";
 *
 * assert.ok(grants(["operator"], "spectator"));
 * assert.ok(!grants(["spectator"], "operator"));
 * assert.ok(!grants(["operator"], "executor"));
 * ```
 */
export function grants(roles: Iterable<Role>, required: Role): boolean {
  for (const role of roles) {
    if (role === required) return true;
    if (role === "operator" && required === "spectator") return true;
  }
  return false;
}
