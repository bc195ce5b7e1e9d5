/**
 * The executor SDK: embed it in a process that runs shards. It heartbeats
 * Shard Manager, starts a processor for every shard assigned to the process
 * and stops it when the shard moves away.
 *
 * - One processor per shard, started and stopped concurrently and
 *   independently; a slow or stuck start or stop never delays heartbeats or
 *   other shards (both have timeouts; a failed start is retried on a later
 *   heartbeat).
 * - Each processor gets a {@linkcode ShardContext}: the shard key, an
 *   `AbortSignal` that aborts on stop, a fencing token, `reportLoad(n)` and
 *   `done()`.
 * - `shutdown()` drains: DRAINING, wait for the shards to move, stop, DRAINED.
 * - Warm handover (optional `prepare` hook): a shard about to move here is
 *   prepared while its owner still serves it, reported PREPARED, and its
 *   processor gets the prepared value as `ctx.prepared` once it is handed over.
 * - While the service is unreachable, shards keep running (static
 *   stability) unless `onUnreachable: { mode: "stop", afterMs }`.
 * - Logs (`logger`, rate-limited: one line when an outage starts, one when
 *   it ends), OpenTelemetry metrics and spans (`meter`, `tracer`, or the
 *   application's global providers); see docs/sdk_executor.md.
 *
 * See `docs/sdk_executor.md` for a guide.
 *
 * @example A processor per shard
 * ```ts ignore
 * import { Executor } from "./mod.ts";
 *
 * await using executor = await new Executor({
 *   addresses: "127.0.0.1:7943",
 *   namespace: "orders",
 *   processor: async (ctx) => {
 *     const consumer = await openConsumer(ctx.shardKey, ctx.fencingToken);
 *     return { stop: () => consumer.close() };
 *   },
 * }).start();
 * declare function openConsumer(shard: string, token: string): Promise<{ close(): Promise<void> }>;
 * ```
 *
 * @module
 */
export { Executor } from "./executor.ts";
export type { ExecutorOptions } from "./options.ts";
export type {
  ExecutorEvent,
  ExecutorState,
  PrepareCancelReason,
  PrepareContext,
  PrepareHook,
  ProcessorFactory,
  ReleaseReason,
  ShardContext,
  ShardOwner,
  ShardProcessor,
  StartOptions,
  UnreachablePolicy,
} from "./types.ts";
export type { SliceInfo } from "./_key_ranges.ts";
export {
  HeartbeatTimeoutError,
  LeaseExpiredError,
  ProcessorTimeoutError,
  ShardStoppedError,
  type StopReason,
} from "./errors.ts";
export { type Clock, systemClock } from "./clock.ts";
export { grpcHeartbeatTransport, type HeartbeatTransport } from "./transport.ts";
/** The messages a {@linkcode HeartbeatTransport} sends and receives (the wire contract's). */
export type {
  HeartbeatRequest__Output,
  HeartbeatResponse__Output,
  ShardAssignment__Output,
} from "../../wire/proto.ts";
export type { SubscribeOptions } from "./event_hub.ts";
export type { ClientTlsOptions } from "../common/credentials.ts";
export * from "../common/public_errors.ts";
