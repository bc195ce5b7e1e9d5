/**
 * Generic Web Streams stages used by the service's pipelines.
 *
 * @module
 */
export * from "./batch_queue.ts";
export * from "./merge_streams.ts";
export * from "./throttle_stream.ts";
export * from "./ticker.ts";
export * from "./version_signal.ts";
export * from "./until_aborted.ts";
