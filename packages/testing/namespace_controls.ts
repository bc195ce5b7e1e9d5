/**
 * The helpers of the test kit's handle: namespaces, the kit's executors,
 * operator actions (drain, freeze, set an assignment), reads, waits and
 * time. `TestShardManager` adds start and stop.
 *
 * @module
 */
import type { ShardManager } from "../../src/service/mod.ts";
import type { Store } from "../../src/store/mod.ts";
import { type NamespaceDefinition, withTestDefaults } from "./_kit_config.ts";
import { commitAssignment, forgetExecutor } from "./_fenced_writes.ts";
import { type Assignment, assignmentOf, unsettledReason, waitUntil } from "./_settled.ts";
import { TestExecutor, type TestExecutorOptions } from "./test_executor.ts";
import type { WarpClock } from "./warp_clock.ts";

/** Options of the waits. */
export interface WaitOptions {
  /** Give up (reject) after this long. @default {10000} */
  readonly timeoutMs?: number;
}

/** What an SDK `Executor` needs to reach the kit, with timings that suit it. */
export interface KitExecutorOptions {
  /** The kit's address. */
  readonly addresses: string[];
  /** The namespace. */
  readonly namespace: string;
  /** A quarter of the kit's heartbeat TTL, at most 250 ms. */
  readonly heartbeatIntervalMs: number;
}

/** The kit's timings. */
interface Timings {
  readonly heartbeatTtlMs: number;
  readonly periodMs: number;
  readonly addresses: () => readonly string[];
}

/** The kit handle's helpers (see `TestShardManager`). */
export class NamespaceControls {
  /** The service itself, for what the helpers do not cover (not a stable API). */
  readonly manager: ShardManager;
  /** An executor unheard of for this long is lost, in ms. */
  readonly heartbeatTtlMs: number;
  #store: Store;
  #clock: WarpClock;
  #timings: Timings;
  #executors = new Map<string, TestExecutor>();
  #frozen = new Map<string, Record<string, unknown>>();
  #nextExecutor = 1;

  /** Helpers over `manager`, whose main store is `store` and clock `clock`. */
  constructor(manager: ShardManager, store: Store, clock: WarpClock, timings: Timings) {
    this.manager = manager;
    this.#store = store;
    this.#clock = clock;
    this.#timings = timings;
    this.heartbeatTtlMs = timings.heartbeatTtlMs;
  }

  /** Creates a namespace and waits until it has a leader. */
  async createNamespace(definition: NamespaceDefinition): Promise<void> {
    const spec = withTestDefaults(definition);
    await this.manager.admin.create(spec.name, JSON.stringify(spec));
    await this.#waitForLeader(spec.name);
  }

  /** Options for an SDK `Executor` of `namespace` on this kit: spread them, add a processor. */
  executorOptions(namespace: string): KitExecutorOptions {
    return {
      addresses: [...this.#timings.addresses()],
      namespace,
      heartbeatIntervalMs: Math.max(10, Math.min(250, Math.floor(this.heartbeatTtlMs / 4))),
    };
  }

  /**
   * Starts an "other" executor (a real SDK executor run by the kit) and waits
   * until the service has heard it. It is stopped with the kit.
   */
  async addExecutor(namespace: string, options: TestExecutorOptions = {}): Promise<TestExecutor> {
    this.#namespace(namespace);
    const executorId = options.executorId ?? `test-executor-${this.#nextExecutor++}`;
    const key = `${namespace}/${executorId}`;
    if (this.#executors.has(key)) {
      throw new Error(`The kit already runs executor ${executorId} in ${namespace}`);
    }
    const { addresses, heartbeatIntervalMs } = this.executorOptions(namespace);
    const executor = await TestExecutor.start(addresses, namespace, heartbeatIntervalMs, {
      ...options,
      executorId,
    });
    this.#executors.set(key, executor);
    await waitUntil(() => this.#namespace(namespace).executor(executorId) && true, {
      timeoutMs: 10_000,
      what: `the service heard executor ${executorId}`,
    });
    return executor;
  }

  /** Stops a kit executor gracefully (DRAINING, then DRAINED) and forgets it. */
  async removeExecutor(namespace: string, executorId: string): Promise<void> {
    const key = `${namespace}/${executorId}`;
    const executor = this.#executors.get(key);
    if (executor === undefined) {
      throw new Error(`The kit runs no executor ${executorId} in ${namespace}`);
    }
    await executor.stop();
    this.#executors.delete(key);
  }

  /**
   * Makes the service lose `executorId` now, as if its heartbeat TTL had
   * passed: a kit executor is crashed first (it stays silent); the service
   * forgets the executor and its leader moves the shards away. An
   * executor that keeps heartbeating (one the test started) comes back as a
   * new one.
   */
  async expireExecutor(namespace: string, executorId: string): Promise<void> {
    this.#executors.get(`${namespace}/${executorId}`)?.crash();
    const view = () => this.#namespace(namespace);
    if (view().executor(executorId) === undefined) {
      throw new Error(`Namespace ${namespace} has no executor ${executorId}`);
    }
    let forgotten = forgetExecutor(this.#store, view, executorId, () => this.#pause());
    let lastTry = performance.now();
    await forgotten;
    await waitUntil(() => {
      if (view().shardsOf(executorId).size === 0) return true;
      // A heartbeat in flight when it went silent changed its record: forget it again.
      if (performance.now() - lastTry > 200) {
        lastTry = performance.now();
        forgotten = forgetExecutor(this.#store, view, executorId, () => this.#pause());
        forgotten.catch(() => {});
      }
      return undefined;
    }, { timeoutMs: 10_000, what: `executor ${executorId}'s shards moved away` });
    await forgotten;
  }

  /** Drains an executor (an operator drain, kept until `undrainExecutor`). */
  async drainExecutor(namespace: string, executorId: string, reason = "test"): Promise<void> {
    await this.manager.executorDrains.drain(namespace, { executorId }, reason, { force: true });
  }

  /** Removes the drain of an executor. */
  async undrainExecutor(namespace: string, executorId: string): Promise<void> {
    await this.manager.executorDrains.undrain(namespace, { executorId });
  }

  /**
   * Stops balancing in `namespace` (`maxMovesPerPass: 0`): shards stay where
   * they are, except that shards of lost or drained executors still move and
   * new shards are still placed. Undo with `unfreeze`.
   */
  async freeze(namespace: string): Promise<void> {
    if (this.#frozen.has(namespace)) return;
    const { spec } = await this.manager.admin.read(namespace);
    if (spec.mode === "cells") {
      this.#frozen.set(namespace, spec);
      return; // a cells namespace never moves tenants by balancing
    }
    await this.#redefine(namespace, { ...spec, maxMovesPerPass: 0 });
    this.#frozen.set(namespace, spec);
  }

  /** Lets the namespace balance again, with its definition as before `freeze`. */
  async unfreeze(namespace: string): Promise<void> {
    const spec = this.#frozen.get(namespace);
    if (spec === undefined) return;
    this.#frozen.delete(namespace);
    if (spec.mode !== "cells") await this.#redefine(namespace, spec);
  }

  /**
   * Gives shards to chosen executors, `{ executorId: [shardKeys] }`, and
   * freezes the namespace so that balancing leaves them there (until
   * `unfreeze`). Each executor must be alive in the namespace. Waits until
   * the service shows the change. In a cells namespace this is the
   * operator's tenant move; in other namespaces (available ownership, one
   * owner per shard) the kit writes the change as the leader would.
   */
  async setAssignment(
    namespace: string,
    assignment: Readonly<Record<string, readonly string[]>>,
  ): Promise<void> {
    const view = () => this.#namespace(namespace);
    for (const [executorId, shards] of Object.entries(assignment)) {
      const executor = view().executor(executorId);
      if (executor === undefined || !view().isAlive(executor, this.#clock.monotonic())) {
        throw new Error(
          `Cannot set the assignment: ${executorId} is not a live executor of ${namespace}`,
        );
      }
      if (!Array.isArray(shards) || shards.some((s) => typeof s !== "string")) {
        throw new TypeError(`Cannot set the assignment: ${executorId} must map to shard keys`);
      }
    }
    const policy = this.manager.namespaces.policy(namespace);
    if (policy.keys.kind === "fixed") {
      const { shardNum } = policy.keys;
      const wrong = Object.values(assignment).flat().find((key) =>
        !(/^(0|[1-9]\d*)$/.test(key) && Number(key) < shardNum)
      );
      if (wrong !== undefined) {
        throw new RangeError(
          `Cannot set the assignment: ${namespace} has shards "0" to "${shardNum - 1}", not ${
            JSON.stringify(wrong)
          }`,
        );
      }
    }
    await this.freeze(namespace);
    if (policy.placement.kind === "cells") {
      for (const [executorId, shards] of Object.entries(assignment)) {
        if (shards.length > 0) await this.manager.cells.moveShards(namespace, shards, executorId);
      }
    } else if (policy.placement.kind !== "balanced" || policy.ownership.mode !== "available") {
      throw new Error(
        `Cannot set the assignment of ${namespace}: the kit sets assignments of cells namespaces and of namespaces with one owner per shard and available ownership`,
      );
    } else {
      await commitAssignment(this.#store, view, assignment, () => this.#pause());
    }
    const wanted = Object.entries(assignment).flatMap(([e, shards]) => shards.map((s) => [s, e]));
    await waitUntil(() => wanted.every(([s, e]) => view().ownerOf(s!) === e) || undefined, {
      timeoutMs: 10_000,
      what: `${namespace} shows the assignment set`,
    });
  }

  /** The namespace's current assignment, shard key → executor id, as the service shows it. */
  assignment(namespace: string): Assignment {
    return assignmentOf(this.#namespace(namespace));
  }

  /** The shards the service gives `executorId`, sorted. */
  shardsOf(namespace: string, executorId: string): string[] {
    return this.#namespace(namespace).sortedShardsOf(executorId);
  }

  /**
   * Waits until the namespace is settled and stays so for two rebalance
   * periods: it has a leader, every shard that should have an owner has one,
   * every owner is alive, ACTIVE and not drained, no handover is under way,
   * the assignment did not change, and every running kit executor runs
   * exactly its shards. Resolves with the assignment.
   */
  async waitUntilSettled(namespace: string, options: WaitOptions = {}): Promise<Assignment> {
    const view = () => this.#namespace(namespace);
    const quietMs = 2 * this.#timings.periodMs;
    let stamp = "";
    let since = performance.now();
    const why = () => this.#unsettled(namespace);
    return await waitUntil(() => {
      const now = `${view().seq}|${why() ?? "settled"}`;
      if (now !== stamp) [stamp, since] = [now, performance.now()];
      if (why() !== undefined || performance.now() - since < quietMs) return undefined;
      return assignmentOf(view());
    }, { timeoutMs: options.timeoutMs ?? 10_000, what: `${namespace} settled`, explain: why });
  }

  /**
   * Waits until `check` returns something other than `undefined` or `false`
   * (checked every few ms), and resolves with it.
   */
  waitFor<T>(check: () => T | undefined | false, options: WaitOptions & {
    /** Named in the timeout's message. */
    readonly what?: string;
  } = {}): Promise<T> {
    return waitUntil(() => {
      const value = check();
      return value === false ? undefined : value;
    }, { timeoutMs: options.timeoutMs ?? 10_000, what: options.what ?? "the condition held" });
  }

  /**
   * Moves the service's clock on by `ms` (heartbeat ages, cooldowns, drains'
   * and leases' times), firing its timers that fall due. The SDK executors
   * keep real time: advancing past the heartbeat TTL makes every executor not
   * heard since look lost, as after a real pause of that length.
   */
  advanceTime(ms: number): Promise<void> {
    return this.#clock.advance(ms);
  }

  /** The service's wall clock, ms since the epoch (real time plus what was advanced). */
  now(): number {
    return this.#clock.now();
  }

  /** Stops every kit executor. */
  protected async stopExecutors(): Promise<void> {
    await Promise.all([...this.#executors.values()].map((e) => e.stop()));
    this.#executors.clear();
  }

  #unsettled(namespace: string): string | undefined {
    const view = this.#namespace(namespace);
    const { keys } = this.manager.namespaces.policy(namespace);
    const shardNum = keys.kind === "fixed" ? keys.shardNum : undefined;
    const reason = unsettledReason(view, this.#clock.monotonic(), shardNum);
    if (reason !== undefined) return reason;
    for (const [key, executor] of this.#executors) {
      if (!key.startsWith(`${namespace}/`) || executor.crashed) continue;
      const want = view.sortedShardsOf(executor.id).join(",");
      const have = executor.runningShards.join(",");
      if (want !== have) return `kit executor ${executor.id} runs [${have}], owns [${want}]`;
    }
    return undefined;
  }

  /** Updates the definition; waits for the new leader term that a change of definition starts. */
  async #redefine(namespace: string, spec: Record<string, unknown>): Promise<void> {
    const before = this.#namespace(namespace).leader?.revision;
    const { changes } = await this.manager.admin.update(namespace, JSON.stringify(spec));
    if (changes.length === 0) return;
    await waitUntil(() => {
      const leader = this.#namespace(namespace).leader;
      return leader !== undefined && leader.revision !== before ? leader : undefined;
    }, { timeoutMs: 10_000, what: `${namespace} has a leader again after its change` });
  }

  #waitForLeader(namespace: string): Promise<unknown> {
    return waitUntil(() => this.#namespace(namespace).leader, {
      timeoutMs: 10_000,
      what: `${namespace} has a leader`,
    });
  }

  #namespace(namespace: string) {
    return this.manager.namespaces.view(namespace);
  }

  #pause(): Promise<void> {
    return new Promise((resolve) => setTimeout(resolve, 10));
  }
}
