/**
 * The operator RPCs: writes an operator asks for. The metrics count them
 * (`sm_operator_calls_total`), the history names who made them and records
 * their refusals.
 *
 * @module
 */

/** Operator writes to a namespace's shards and executors. */
export const OPERATOR_METHODS: ReadonlySet<string> = new Set([
  "DrainShards",
  "UndrainShards",
  "DrainExecutors",
  "UndrainExecutors",
  "MoveShards",
  "ForceResetNamespace",
  "LiftBrake",
  "ChangeSlice",
]);

/** Operator writes to namespaces themselves (namespaces as data). */
export const NAMESPACE_ADMIN_METHODS: ReadonlySet<string> = new Set([
  "CreateNamespace",
  "UpdateNamespace",
  "DeleteNamespace",
]);
