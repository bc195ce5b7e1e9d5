/**
 * Client SDKs for Shard Manager. They import nothing from the server's code,
 * only the wire contract (`src/wire/`) and the pure placement functions
 * (`src/placement/`, which does no I/O and imports nothing else).
 *
 * - Executor SDK: run a processor per assigned shard ({@linkcode Executor}).
 * - Leader selector: run a function on exactly one node ({@linkcode LeaderSelector}).
 * - Spectator SDK: route requests to shard owners from a local map ({@linkcode Spectator}).
 * - One error model: {@linkcode ShardManagerError} and its `code`s.
 * - Stateless owner sets: compute a key's k owners from (seed, key, executors)
 *   without asking anyone ({@linkcode ownerSet}, {@linkcode ownerSetFunction}).
 *
 * @module
 */
export * from "./executor/mod.ts";
export * from "./leader/mod.ts";
export * from "./spectator/mod.ts";
export * from "./owner_set.ts";
