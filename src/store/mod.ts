/**
 * Store ports. Adapters live in sub-folders (`etcd/`).
 *
 * @module
 */
export * from "./store.ts";
export * from "./leader_store.ts";
export * from "./namespace_definitions.ts";
export * from "./operator_write.ts";
export * from "./history_store.ts";
export * from "./store_format.ts";
export * from "./brake_store.ts";
