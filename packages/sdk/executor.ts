/**
 * `@shard-manager/sdk/executor`: the executor SDK. Embed it in a process
 * that runs shards: it heartbeats Shard Manager, starts a processor for
 * every shard assigned to the process and stops it when the shard moves
 * away. Guide: docs/sdk_executor.md.
 *
 * @example Options are checked before anything is sent
 * ```ts
 * import assert from "node:assert/strict";
 * import { Executor, type ShardManagerError } from "./executor.ts";
 *
 * assert.throws(
 *   () => new Executor({ addresses: "http://127.0.0.1:7943", namespace: "orders", processor: () => {} }),
 *   (error: ShardManagerError) => error.code === "INVALID_OPTIONS" && /without a scheme/.test(error.message),
 * );
 * ```
 *
 * @module
 */
export * from "../../src/client/executor/mod.ts";
