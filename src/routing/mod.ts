/**
 * Routing: answering who owns what, from memory, and fanning changes out to spectators.
 *
 * @module
 */
export * from "./assignment_hints.ts";
export * from "./handovers.ts";
export * from "./inspection.ts";
export * from "./liveness.ts";
export * from "./routed_namespace.ts";
export * from "./namespace_info.ts";
export * from "./namespace_stats.ts";
export * from "./not_running.ts";
export * from "./routing.ts";
export * from "./shard_requester.ts";
export * from "./views.ts";
export * from "./watch_fanout.ts";
