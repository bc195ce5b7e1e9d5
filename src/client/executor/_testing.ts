/**
 * Test doubles for the SDKs' unit tests: fake time and an in-memory service
 * that places shards like Shard Manager does (no network).
 *
 * @module
 */
import FakeTimers from "@sinonjs/fake-timers";
import type {
  HeartbeatRequest__Output,
  HeartbeatResponse__Output,
  ShardAssignment__Output,
} from "../../wire/proto.ts";
import type { Clock } from "./clock.ts";
import { Executor } from "./executor.ts";
import type { ExecutorOptions } from "./options.ts";
import type { HeartbeatTransport } from "./transport.ts";
import type { ExecutorEvent, ShardContext, ShardOwner } from "./types.ts";

/** A fake clock and its {@linkcode Clock} view. */
export interface FakeTime {
  /** Advance with `await time.tickAsync(ms)`. */
  readonly time: ReturnType<typeof FakeTimers.createClock>;
  /** What the SDK is given. */
  readonly clock: Clock;
}

/** Fake time starting at 0. */
export function fakeTime(): FakeTime {
  const time = FakeTimers.createClock(0);
  return {
    time,
    clock: {
      now: () => time.now,
      setTimeout: (callback, ms) => time.setTimeout(callback, ms),
      clearTimeout: (handle) => time.clearTimeout(handle as number),
    },
  };
}

/** Options of {@linkcode FakeService}. */
export interface FakeServiceOptions {
  /** Shard keys of the namespace. @default {[]} */
  readonly shards?: readonly string[];
  /** An executor unseen this long loses its shards. @default {Infinity} */
  readonly ttlMs?: number;
  /** Shards reported DONE are removed (an ephemeral namespace). @default {false} */
  readonly ephemeral?: boolean;
  /** Current time, for staleness. */
  readonly now?: () => number;
  /** Answers as an exclusive namespace with this lease (ms). @default {available} */
  readonly leaseMs?: number;
  /**
   * Offers assignment hints (`watchAssignment`): every stream hints at once,
   * then whenever {@linkcode FakeService.rebalance} changes its executor's
   * shards, or on {@linkcode FakeService.hint}. @default {false: no hint streams}
   */
  readonly hints?: boolean;
  /** Heartbeats only record; shards move when the test calls `rebalance()`. @default {false} */
  readonly manual?: boolean;
}

interface Seen {
  status: string;
  at: number;
  reports: HeartbeatRequest__Output["shardStatusReports"];
}

/**
 * An in-memory shard distributor for one namespace: each heartbeat is
 * recorded, then shards of executors that are not ACTIVE or are stale lose
 * their owner, and unowned shards go to the ACTIVE executor with the fewest
 * (ties: lowest id), each with a fresh, growing fencing token.
 */
export class FakeService implements HeartbeatTransport {
  /** Every heartbeat received, in order. */
  readonly requests: HeartbeatRequest__Output[] = [];
  /** The namespace's shards; tests may add and delete. */
  readonly shards: Set<string>;
  /** Shard → owner. */
  readonly owners = new Map<string, string>();
  /** Shard → fencing token of its current owner. */
  readonly tokens = new Map<string, string>();
  /** While set, heartbeats reject with it. */
  down: Error | undefined;
  /** While true, heartbeats never answer (they reject when their signal aborts). */
  hang = false;
  /** Shards answered RELEASING (exclusive handover) to their owner. */
  readonly releasing: Set<string> = new Set();
  /**
   * Shards the service quarantined: they lose their owner and are named in
   * `quarantinedShards` to an executor that still reports them.
   */
  readonly quarantined: Set<string> = new Set();
  /** While set, answers wait for it (after the heartbeat is recorded). */
  delay: Promise<void> | undefined;
  /**
   * Warm handovers in flight: shard → incoming executor and the token it
   * will get. Answered as PREPARING to that executor when it sends
   * `warmHandover` (see {@linkcode FakeService.prepare}).
   */
  readonly preparing = new Map<string, { readonly executorId: string; readonly token: string }>();
  /** Key-range namespaces: shard → the key range its answers carry (none: not a slice). */
  readonly keyRanges = new Map<string, NonNullable<ShardAssignment__Output["keyRange"]>>();
  /** With `hints`: hint streams opened so far, in order, by executor id. */
  readonly hintStreams: string[] = [];
  /** With `hints`: follows an executor's hints (see `HeartbeatTransport.watchAssignment`). */
  readonly watchAssignment?: NonNullable<HeartbeatTransport["watchAssignment"]>;
  readonly #executors = new Map<string, Seen>();
  readonly #options: FakeServiceOptions;
  readonly #hinted = new Map<string, Set<() => void>>();
  #revision = 100;

  /** A service with `options.shards`. */
  constructor(options: FakeServiceOptions = {}) {
    this.#options = options;
    this.shards = new Set(options.shards ?? []);
    if (options.hints) this.watchAssignment = (request, signal) => this.#watch(request, signal);
  }

  /** Open hint streams of `executorId`. */
  openHintStreams(executorId: string): number {
    return this.#hinted.get(executorId)?.size ?? 0;
  }

  /** Hints every open stream of `executorId` (coalesced while its reader is busy). */
  hint(executorId: string): void {
    for (const poke of this.#hinted.get(executorId) ?? []) poke();
  }

  async *#watch(request: { readonly executorId: string }, signal: AbortSignal) {
    const id = request.executorId;
    this.hintStreams.push(id);
    let pending = true; // the first hint comes at once
    let wake: (() => void) | undefined;
    const poke = () => {
      pending = true;
      wake?.();
    };
    const set = this.#hinted.get(id) ?? new Set();
    this.#hinted.set(id, set.add(poke));
    const onAbort = () => wake?.();
    signal.addEventListener("abort", onAbort);
    try {
      while (!signal.aborted) {
        if (!pending) await new Promise<void>((resolve) => wake = resolve);
        wake = undefined;
        if (signal.aborted || !pending) continue;
        pending = false;
        yield String(this.#revision);
      }
    } finally {
      set.delete(poke);
      signal.removeEventListener("abort", onAbort);
    }
  }

  /** Plans a warm handover of `shard` to `executorId` (a fresh token); hints it. */
  prepare(shard: string, executorId: string): string {
    const token = String(++this.#revision);
    this.preparing.set(shard, { executorId, token });
    this.hint(executorId);
    return token;
  }

  /** Completes the handover of `shard`: its incoming executor owns it, with the planned token. */
  handOver(shard: string): void {
    const move = this.preparing.get(shard);
    if (move === undefined) throw new Error(`No handover of shard ${shard} in flight`);
    this.preparing.delete(shard);
    const before = this.owners.get(shard);
    this.owners.set(shard, move.executorId);
    this.tokens.set(shard, move.token);
    this.hint(move.executorId);
    if (before !== undefined) this.hint(before);
  }

  /** Calls the handover of `shard` off. */
  cancelHandover(shard: string): void {
    const move = this.preparing.get(shard);
    this.preparing.delete(shard);
    if (move) this.hint(move.executorId);
  }

  /** `GetShardOwner`: the owner and the metadata of its last heartbeat. */
  shardOwner(request: { readonly shardKey: string }): Promise<ShardOwner | undefined> {
    const owner = this.owners.get(request.shardKey);
    if (owner === undefined) return Promise.resolve(undefined);
    const metadata = this.lastRequest(owner)?.metadata ?? {};
    return Promise.resolve({ executorId: owner, metadata });
  }

  /** Records `request` and answers with the executor's shards. */
  heartbeat(
    request: HeartbeatRequest__Output,
    options: { readonly signal: AbortSignal },
  ): Promise<HeartbeatResponse__Output> {
    this.requests.push(structuredClone(request));
    if (this.hang) {
      return new Promise((_, reject) =>
        options.signal.addEventListener("abort", () => reject(new Error("cancelled")), {
          once: true,
        })
      );
    }
    if (this.down) return Promise.reject(this.down);
    this.#executors.set(request.executorId, {
      status: request.status,
      at: this.#now(),
      reports: request.shardStatusReports,
    });
    if (!this.#options.manual) this.rebalance();
    const shardAssignments: HeartbeatResponse__Output["shardAssignments"] = {};
    for (const shard of this.shardsOf(request.executorId)) {
      shardAssignments[shard] = {
        status: this.releasing.has(shard)
          ? "ASSIGNMENT_STATUS_RELEASING"
          : "ASSIGNMENT_STATUS_READY",
        fencingToken: this.tokens.get(shard)!,
        keyRange: this.keyRanges.get(shard) ?? null,
      };
    }
    for (const [shard, move] of this.preparing) {
      if (move.executorId !== request.executorId || !request.warmHandover) continue;
      shardAssignments[shard] = {
        status: "ASSIGNMENT_STATUS_PREPARING",
        fencingToken: move.token,
        keyRange: null,
      };
    }
    const lease = this.#options.leaseMs;
    const answer: HeartbeatResponse__Output = {
      shardAssignments,
      migrationMode: "MIGRATION_MODE_ONBOARDED",
      ownershipMode: lease === undefined ? "OWNERSHIP_MODE_AVAILABLE" : "OWNERSHIP_MODE_EXCLUSIVE",
      ownershipLeaseMs: String(lease ?? 0),
      revision: String(this.#revision),
      quarantinedShards: [...this.quarantined]
        .filter((shard) => shard in request.shardStatusReports).sort(),
    };
    const delay = this.delay;
    return delay ? delay.then(() => answer) : Promise.resolve(answer);
  }

  /** Moves shards as the service's leader would (and hints the executors concerned). */
  rebalance(): void {
    const before = new Map(this.owners);
    this.#place();
    if (!this.#options.hints) return;
    const touched = new Set<string>();
    for (const [shard, owner] of before) if (this.owners.get(shard) !== owner) touched.add(owner);
    for (const [shard, owner] of this.owners) if (before.get(shard) !== owner) touched.add(owner);
    for (const id of touched) this.hint(id);
  }

  #place(): void {
    const now = this.#now();
    const ttl = this.#options.ttlMs ?? Infinity;
    const live = [...this.#executors]
      .filter(([, e]) => e.status === "EXECUTOR_STATUS_ACTIVE" && now - e.at <= ttl)
      .map(([id]) => id).sort();
    for (const [shard, owner] of this.owners) {
      const done = this.#executors.get(owner)?.reports[shard]?.status === "SHARD_STATUS_DONE";
      if (done && this.#options.ephemeral) this.shards.delete(shard);
      if (!this.shards.has(shard) || !live.includes(owner) || this.quarantined.has(shard)) {
        this.owners.delete(shard);
        this.tokens.delete(shard);
      }
    }
    if (live.length === 0) return;
    for (const shard of [...this.shards].sort()) {
      if (this.owners.has(shard) || this.quarantined.has(shard)) continue;
      const target = live.reduce((best, id) =>
        this.shardsOf(id).length < this.shardsOf(best).length ? id : best
      );
      this.owners.set(shard, target);
      this.tokens.set(shard, String(++this.#revision));
    }
  }

  /** Shards `executorId` owns, sorted. */
  shardsOf(executorId: string): string[] {
    return [...this.owners].filter(([, owner]) => owner === executorId).map(([s]) => s).sort();
  }

  /** The last heartbeat of `executorId`. */
  lastRequest(executorId: string): HeartbeatRequest__Output | undefined {
    return this.requests.findLast((r) => r.executorId === executorId);
  }

  /** Nothing to release. */
  close(): void {}

  #now(): number {
    return this.#options.now?.() ?? 0;
  }
}

/** What {@linkcode testExecutor} sets up. */
export interface TestExecutor extends FakeTime {
  /** The fake service. */
  readonly service: FakeService;
  /** The executor, `e1` in namespace `ns`, not started. */
  readonly executor: Executor;
  /** Contexts the default processor was started with. */
  readonly contexts: ShardContext[];
  /** Events seen so far. */
  readonly events: ExecutorEvent[];
  /** Shard keys (or the type, for events without one) of the events of `type`. */
  types(type: ExecutorEvent["type"]): string[];
  /** Resolves when the events iterator ended. */
  readonly collected: Promise<void>;
  /** Shuts the executor down, advancing fake time until it has. */
  shutdown(): Promise<void>;
}

/** An executor on fake time against a fake service, with its events collected. */
export function testExecutor(
  options: Partial<ExecutorOptions> = {},
  serviceOptions: FakeServiceOptions = { shards: ["1", "2", "3"] },
): TestExecutor {
  const { time, clock } = fakeTime();
  const service = new FakeService({ now: clock.now, ...serviceOptions });
  const contexts: ShardContext[] = [];
  const executor = new Executor({
    addresses: "unused:1",
    namespace: "ns",
    executorId: "e1",
    transport: service,
    clock,
    random: () => 0.5,
    logger: false, // tests that check logs pass their own
    processor: (ctx) => {
      contexts.push(ctx);
    },
    ...options,
  });
  const events: ExecutorEvent[] = [];
  const iterator = executor.events();
  const collected = (async () => {
    for await (const event of iterator) events.push(event);
  })();
  const types = (type: ExecutorEvent["type"]) =>
    events.filter((e) => e.type === type).map((e) => "shardKey" in e ? e.shardKey : e.type);
  const shutdown = async () => {
    let settled = false;
    const done = executor.shutdown().then(() => settled = true);
    for (let i = 0; i < 10_000 && !settled; i++) await time.tickAsync(100);
    await done;
    await collected;
  };
  return { time, clock, service, executor, contexts, events, types, collected, shutdown };
}
