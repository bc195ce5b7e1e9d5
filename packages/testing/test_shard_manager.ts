/**
 * A Shard Manager for an application's tests: the real service and its real
 * gRPC server on a loopback port, on the embedded store in a temporary
 * directory, started in-process in milliseconds and removed on dispose.
 *
 * @module
 */
import type { Logger } from "../../src/core/logger.ts";
import { silentLogger } from "../../src/core/logger.ts";
import {
  type EmbeddedLeaderStore,
  type EmbeddedStore,
  openEmbeddedStores,
} from "../../src/store/embedded/mod.ts";
import { ShardManager } from "../../src/service/mod.ts";
import { type GrpcServer, startGrpcServer } from "../../src/transport/grpc/server.ts";
import { kitConfig, type NamespaceDefinition, withTestDefaults } from "./_kit_config.ts";
import { NamespaceControls } from "./namespace_controls.ts";
import { WarpClock } from "./warp_clock.ts";

/** Options of {@linkcode startTestShardManager}. */
export interface TestShardManagerOptions {
  /** Namespaces to create at start (more with `createNamespace`). @default {[]} */
  readonly namespaces?: readonly NamespaceDefinition[];
  /** An executor unheard of for this long is lost (the service's `heartbeatTTL`). @default {1000} */
  readonly heartbeatTtlMs?: number;
  /** Time between the leader's periodic rebalance passes (`process.period`). @default {100} */
  readonly periodMs?: number;
  /** Where the service logs. @default {nowhere} */
  readonly logger?: Logger;
}

/** A running test Shard Manager; see {@linkcode startTestShardManager}. */
export class TestShardManager extends NamespaceControls implements AsyncDisposable {
  /** The gRPC address(es) to give the SDK's `Executor`, `createSpectator` and `leaderSelector`. */
  readonly addresses: readonly string[];
  #server: GrpcServer;
  #store: EmbeddedStore;
  #leaderStore: EmbeddedLeaderStore;
  #dataDir: string;
  #stopping: Promise<void> | undefined;

  private constructor(parts: {
    manager: ShardManager;
    server: GrpcServer;
    store: EmbeddedStore;
    leaderStore: EmbeddedLeaderStore;
    clock: WarpClock;
    dataDir: string;
    heartbeatTtlMs: number;
    periodMs: number;
  }) {
    super(parts.manager, parts.store, parts.clock, {
      heartbeatTtlMs: parts.heartbeatTtlMs,
      periodMs: parts.periodMs,
      addresses: () => this.addresses,
    });
    this.addresses = Object.freeze([parts.server.address]);
    this.#server = parts.server;
    this.#store = parts.store;
    this.#leaderStore = parts.leaderStore;
    this.#dataDir = parts.dataDir;
  }

  /** Use {@linkcode startTestShardManager}. */
  static async start(options: TestShardManagerOptions = {}): Promise<TestShardManager> {
    const heartbeatTtlMs = options.heartbeatTtlMs ?? 1_000;
    const periodMs = options.periodMs ?? 100;
    const config = kitConfig("unused", { heartbeatTtlMs, periodMs });
    if (options.namespaces !== undefined && !Array.isArray(options.namespaces)) {
      throw new TypeError(
        `namespaces must be an array of definitions, got ${JSON.stringify(options.namespaces)}`,
      );
    }
    const definitions = (options.namespaces ?? []).map(withTestDefaults);
    const dataDir = await Deno.makeTempDir({ prefix: "shard-manager-test-" });
    const { store, leaderStore } = await openEmbeddedStores(dataDir);
    const clock = new WarpClock();
    const logger = options.logger ?? silentLogger;
    const manager = new ShardManager({ config, store, leaderStore, logger, clock });
    let server: GrpcServer | undefined;
    try {
      await manager.start();
      server = await startGrpcServer(manager, "127.0.0.1:0", logger, {
        forwardToLeader: false,
        clock,
      });
      // Leader claims say where the leader is; the kit serves no HTTP (no dashboard, no metrics).
      manager.advertise({ instanceName: "test-kit", grpcAddress: server.address, httpAddress: "" });
      const kit = new TestShardManager({
        manager,
        server,
        store,
        leaderStore,
        clock,
        dataDir,
        heartbeatTtlMs,
        periodMs,
      });
      for (const definition of definitions) await kit.createNamespace(definition);
      return kit;
    } catch (error) {
      await server?.stop(0);
      await manager.stop();
      await leaderStore.close();
      await store.close();
      await Deno.remove(dataDir, { recursive: true }).catch(() => {});
      throw error;
    }
  }

  /**
   * Stops the kit's executors, the service and its server, and removes the
   * store's directory. Calling it again returns the same promise.
   */
  stop(): Promise<void> {
    return this.#stopping ??= (async () => {
      await this.stopExecutors();
      await this.manager.stop();
      await this.#server.stop(0);
      await this.#leaderStore.close();
      await this.#store.close();
      await Deno.remove(this.#dataDir, { recursive: true }).catch(() => {});
    })();
  }

  /** Same as {@linkcode TestShardManager.stop}. */
  [Symbol.asyncDispose](): Promise<void> {
    return this.stop();
  }
}

/**
 * Starts a Shard Manager for a test: the real service with its gRPC server
 * on `127.0.0.1` (a free port), on the embedded store in a temporary
 * directory. Point the SDK at `addresses`; dispose of it (`await using`) to
 * stop everything and remove the directory.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { Executor } from "@shard-manager/sdk/executor";
 * import { startTestShardManager } from "./mod.ts";
 *
 * await using sm = await startTestShardManager({
 *   namespaces: [{ name: "orders", type: "fixed", shardNum: 4 }],
 * });
 * const running = new Set<string>();
 * await using executor = new Executor({
 *   ...sm.executorOptions("orders"),
 *   processor: (ctx) => {
 *     running.add(ctx.shardKey);
 *     return { stop: () => void running.delete(ctx.shardKey) };
 *   },
 * });
 * await executor.start();
 * await sm.waitUntilSettled("orders");
 * await sm.waitFor(() => running.size === 4);
 * assert.deepEqual([...running].sort(), ["0", "1", "2", "3"]);
 * ```
 */
export function startTestShardManager(
  options: TestShardManagerOptions = {},
): Promise<TestShardManager> {
  return TestShardManager.start(options);
}
