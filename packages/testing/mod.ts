/**
 * `@shard-manager/testing`: test an application's shard logic against a real
 * Shard Manager without running etcd. {@linkcode startTestShardManager}
 * starts the service in-process (its real gRPC server on a loopback port,
 * the embedded store in a temporary directory) in milliseconds; the handle
 * adds executors, drains, freezes, sets assignments, expires executors, waits
 * until a namespace settles and moves the service's clock. The SDK itself
 * (`@shard-manager/sdk`) never imports this package or any server code.
 *
 * See docs/sdk_testing.md for a guide.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { startTestShardManager } from "./mod.ts";
 *
 * await using sm = await startTestShardManager({
 *   namespaces: [{ name: "jobs", type: "fixed", shardNum: 2 }],
 * });
 * const other = await sm.addExecutor("jobs");
 * const assignment = await sm.waitUntilSettled("jobs");
 * assert.deepEqual(assignment, { "0": other.id, "1": other.id });
 * ```
 *
 * @module
 */
export {
  startTestShardManager,
  TestShardManager,
  type TestShardManagerOptions,
} from "./test_shard_manager.ts";
export type { KitExecutorOptions, NamespaceControls, WaitOptions } from "./namespace_controls.ts";
export { TestExecutor, type TestExecutorOptions } from "./test_executor.ts";
export type { NamespaceDefinition } from "./_kit_config.ts";
export type { Assignment } from "./_settled.ts";
