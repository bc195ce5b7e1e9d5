/**
 * `@shard-manager/sdk/leader`: the leader selector ({@linkcode LeaderSelector}). Run a function on
 * exactly one node of a group (Apache Curator's `LeaderSelector` semantics),
 * built on the executor SDK over a fixed namespace with `shardNum: 1`.
 * Guide: docs/sdk_executor.md.
 *
 * @example Options are checked before anything is sent
 * ```ts
 * import assert from "node:assert/strict";
 * import { LeaderSelector } from "./leader.ts";
 *
 * assert.throws(
 *   () => new LeaderSelector({ addresses: [], namespace: "cron", takeLeadership: () => {} }),
 *   /addresses must be "host:port" or a non-empty array of them .* got \[\]/,
 * );
 * ```
 *
 * @module
 */
export * from "../../src/client/leader/mod.ts";
