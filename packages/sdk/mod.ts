/**
 * `@shard-manager/sdk`: the client SDKs of Shard Manager for applications,
 * on Deno and on Node.js.
 *
 * - Executor SDK: run a processor per shard assigned to this process
 *   ({@linkcode Executor}; also `@shard-manager/sdk/executor`).
 * - Spectator SDK: route requests to a shard's owner from a local map kept
 *   current by a watch stream ({@linkcode Spectator}; also
 *   `@shard-manager/sdk/spectator`).
 * - Leader selector: run a function on exactly one node
 *   ({@linkcode LeaderSelector}; also `@shard-manager/sdk/leader`).
 * - All three are built alike: `await new X(options).start()`, `await using`
 *   to close, and every error a {@linkcode ShardManagerError} with a `code`.
 * - Owner sets computed without asking anyone ({@linkcode ownerSet}).
 *
 * Its npm dependencies are named by full `npm:` specifiers and the wire
 * contract is embedded, so a Deno project imports this module by path or URL
 * with no configuration, and a program needs only `--allow-net --allow-env`
 * (see README.md).
 *
 * @example Compute a key's owners without a service
 * ```ts
 * import assert from "node:assert/strict";
 * import { ownerSet } from "./mod.ts";
 *
 * const executors = [{ id: "a" }, { id: "b" }, { id: "c" }];
 * const owners = ownerSet(42, "customer-17", executors, 2);
 * assert.equal(new Set(owners).size, 2);
 * ```
 *
 * @module
 */
export * from "../../src/client/mod.ts";
