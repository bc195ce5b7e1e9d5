/**
 * The kit's "other" executors: real SDK executors (`@shard-manager/sdk`)
 * over real gRPC, with a switch between them and the service so that a test
 * can make one go silent as a crashed process would.
 *
 * @module
 */
import {
  Executor,
  grpcHeartbeatTransport,
  type HeartbeatTransport,
  type PrepareHook,
  type ProcessorFactory,
} from "../sdk/executor.ts";

/** How {@linkcode TestExecutor}'s transport behaves. */
type Line = "connected" | "crashed" | "detached";

/** Options of a kit executor. */
export interface TestExecutorOptions {
  /** Its id. @default {`test-executor-<n>`} */
  readonly executorId?: string;
  /** Metadata sent with its heartbeats. @default {{}} */
  readonly metadata?: Readonly<Record<string, string>>;
  /** Its processor. @default {one that does nothing until its shard moves away} */
  readonly processor?: ProcessorFactory;
  /**
   * Warm handover: the executor's `prepare` hook (it then sends
   * `warm_handover`). @default {none: shards arrive cold}
   */
  readonly prepare?: PrepareHook<unknown>;
}

/**
 * An SDK {@linkcode Executor} started by the kit. `crash()` cuts its
 * heartbeats (the service hears nothing, its processors keep running, as
 * with a process that hung or lost its network); `stop()` leaves gracefully.
 * Made by the kit's `addExecutor`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { startTestShardManager } from "./mod.ts";
 *
 * await using sm = await startTestShardManager({
 *   namespaces: [{ name: "jobs", type: "fixed", shardNum: 2 }],
 * });
 * const a = await sm.addExecutor("jobs", { executorId: "a" });
 * await sm.waitUntilSettled("jobs");
 * assert.deepEqual(a.runningShards, ["0", "1"]);
 * a.crash(); // the service hears nothing more; its processors keep running
 * assert.deepEqual(a.runningShards, ["0", "1"]);
 * ```
 */
export class TestExecutor implements AsyncDisposable {
  /** The SDK executor itself. */
  readonly executor: Executor;
  #line: Line = "connected";
  #stopping: Promise<void> | undefined;

  /** Builds and starts it; resolves once started (whichever way the SDK's `start()` reports it). */
  static async start(
    addresses: readonly string[],
    namespace: string,
    heartbeatIntervalMs: number,
    options: TestExecutorOptions & { readonly executorId: string },
  ): Promise<TestExecutor> {
    const made = new TestExecutor(addresses, namespace, heartbeatIntervalMs, options);
    await made.executor.start();
    return made;
  }

  private constructor(
    addresses: readonly string[],
    namespace: string,
    heartbeatIntervalMs: number,
    options: TestExecutorOptions & { readonly executorId: string },
  ) {
    const grpc = grpcHeartbeatTransport(addresses);
    const transport: HeartbeatTransport = {
      heartbeat: (request, call) => {
        if (this.#line === "connected") return grpc.heartbeat(request, call);
        if (this.#line === "crashed") {
          return Promise.reject(new Error(`Executor ${options.executorId} crashed (test kit)`));
        }
        // Detached: answer locally with no shards, so the SDK stops its processors and ends.
        return Promise.resolve({
          shardAssignments: {},
          migrationMode: "MIGRATION_MODE_ONBOARDED",
          ownershipMode: "OWNERSHIP_MODE_AVAILABLE",
          ownershipLeaseMs: "0",
          revision: "0",
          quarantinedShards: [],
        });
      },
      shardOwner: (request, call) => grpc.shardOwner!(request, call),
      close: () => grpc.close(),
    };
    this.executor = new Executor({
      addresses: [...addresses],
      namespace,
      executorId: options.executorId,
      metadata: options.metadata ?? {},
      heartbeatIntervalMs,
      drainTimeoutMs: 10 * heartbeatIntervalMs,
      transport,
      processor: options.processor ?? (() => {}),
      ...(options.prepare ? { prepare: options.prepare } : {}),
    });
  }

  /** Its executor id. */
  get id(): string {
    return this.executor.id;
  }

  /** Shards whose processors run here, sorted. */
  get runningShards(): string[] {
    return this.executor.runningShards;
  }

  /** Whether {@linkcode TestExecutor.crash} was called. */
  get crashed(): boolean {
    return this.#line !== "connected";
  }

  /** Stops its heartbeats reaching the service (its processors keep running). */
  crash(): void {
    if (this.#line === "connected") this.#line = "crashed";
  }

  /**
   * Leaves: gracefully (DRAINING, then DRAINED) when connected; a crashed
   * one stops its processors without telling the service.
   */
  stop(): Promise<void> {
    return this.#stopping ??= (() => {
      if (this.#line === "crashed") this.#line = "detached";
      return this.executor.shutdown();
    })();
  }

  /** Same as {@linkcode TestExecutor.stop}. */
  [Symbol.asyncDispose](): Promise<void> {
    return this.stop();
  }
}
