/**
 * Options of {@linkcode Executor}.
 *
 * @module
 */
import type { ConnectionOptions } from "../common/connection_options.ts";
import type { ObservabilityOptions } from "../common/observability_options.ts";
import type { Clock } from "./clock.ts";
import type { HeartbeatTransport } from "./transport.ts";
import type { PrepareHook, ProcessorFactory, UnreachablePolicy } from "./types.ts";

/**
 * How to create an {@linkcode Executor}. Durations are in milliseconds. `P`
 * is what `prepare` returns and the processor gets as `ctx.prepared`.
 */
export interface ExecutorOptions<P = unknown> extends ConnectionOptions, ObservabilityOptions {
  /** The namespace, as configured on the service. */
  readonly namespace: string;
  /** Starts the processor of one shard; see {@linkcode ProcessorFactory}. */
  readonly processor: ProcessorFactory<P>;
  /**
   * Warm handover: prepares a shard before it moves here, while its current
   * owner still serves it; see {@linkcode PrepareHook}. Given, the executor
   * tells the service it takes part (`warm_handover` in its heartbeats), and
   * planned moves to it become prepare, then switch. Without it the executor
   * behaves as before: each move is a stop there, then a cold start here.
   * @default {none: shards arrive cold}
   */
  readonly prepare?: PrepareHook<P>;
  /**
   * How long `prepare` may take; past it the prepare counts as failed (the
   * service completes or cancels the move on its own timeout).
   * @default {60000}
   */
  readonly prepareTimeoutMs?: number;
  /**
   * Available namespaces: how long a processor keeps serving a shard after
   * the service moved it elsewhere, so that clients whose routers have not
   * switched yet are still served (two owners for a moment is what an
   * available namespace allows; exclusive namespaces never wait). Adds up to
   * this much to `shutdown()`. 0 stops at once.
   * @default {100 with a `prepare` hook, else 0}
   */
  readonly handoffGraceMs?: number;
  /**
   * This executor's id, unique in the namespace.
   * @default {`<hostname>-<8 random hex digits>`, fresh for every Executor}
   */
  readonly executorId?: string;
  /**
   * Metadata sent with every heartbeat and shown to spectators, e.g.
   * `{ address: "10.0.0.5:8080" }`. At most 32 keys of at most 128 bytes (UTF-8).
   * @default {{}}
   */
  readonly metadata?: Readonly<Record<string, string>>;
  /**
   * What this executor can take, declared with every heartbeat (as the
   * reserved metadata keys `sm.capacity.shards` and `sm.capacity.load`): the
   * service never gives it more shards than `shards`, nor shards whose
   * reported loads sum to more than `load` units. Shards that fit on no
   * executor stay unowned. See docs/placement.md, "Capacity".
   * @default {none: the namespace's executorCapacity, if it sets one}
   */
  readonly capacity?: { readonly shards?: number; readonly load?: number };
  /** Time between heartbeats, jittered by ±10%. @default {1000} */
  readonly heartbeatIntervalMs?: number;
  /** How long one heartbeat may take. @default {max(1000, 2 × heartbeatIntervalMs)} */
  readonly heartbeatTimeoutMs?: number;
  /** How long a processor may take to start. @default {10000} */
  readonly startTimeoutMs?: number;
  /**
   * A failed start (a throw or a timeout) is retried after a per-shard
   * backoff: this long after the first failure, doubling with each
   * consecutive failure up to {@linkcode ExecutorOptions.startRetryMaxMs},
   * each delay jittered to between half and all of it. A start that
   * succeeds resets it.
   * @default {1000}
   */
  readonly startRetryInitialMs?: number;
  /** The longest backoff between two starts of a shard that keeps failing. @default {60000} */
  readonly startRetryMaxMs?: number;
  /** How long a processor may take to stop. @default {10000} */
  readonly stopTimeoutMs?: number;
  /**
   * How long {@linkcode Executor.shutdown} waits for the service to take
   * every shard away before it stops the rest itself.
   * @default {10000}
   */
  readonly drainTimeoutMs?: number;
  /**
   * Follow the service's assignment hints (`WatchExecutorAssignment`): on a
   * hint that this executor's assignment changed, heartbeat at once instead
   * of at the next interval, so moves and `shutdown()` take milliseconds, not
   * a heartbeat interval. A service (or transport) without the stream is
   * polled as before, silently. `false`: never open the stream.
   * @default {true}
   */
  readonly assignmentHints?: boolean;
  /** What to do while the service is unreachable. @default {{ mode: "keep" }} */
  readonly onUnreachable?: UnreachablePolicy;
  /** Events each {@linkcode Executor.events} iterator buffers before dropping the oldest. @default {256} */
  readonly eventBufferSize?: number;
  /**
   * Sends heartbeats instead of gRPC to `addresses` (which are then unused),
   * e.g. a fake service in tests.
   * @default {gRPC to `addresses`}
   */
  readonly transport?: HeartbeatTransport;
  /** Time source for timers, e.g. fake time in tests. @default {systemClock} */
  readonly clock?: Clock;
  /** Random numbers in [0, 1) for jitter. @default {Math.random} */
  readonly random?: () => number;
}
