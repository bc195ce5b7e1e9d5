/**
 * Client SDKs for Shard Manager. They import nothing from the server's code,
 * only the wire contract (`src/wire/`).
 *
 * - Executor SDK: run a processor per assigned shard ({@linkcode Executor}).
 * - Leader selector: run a function on exactly one node ({@linkcode leaderSelector}).
 * - Spectator SDK: route requests to shard owners from a local map ({@linkcode createSpectator}).
 *
 * @module
 */
export * from "./executor/mod.ts";
export * from "./leader/mod.ts";
export * from "./spectator/mod.ts";
