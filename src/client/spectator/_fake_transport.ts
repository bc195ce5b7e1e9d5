/**
 * Test doubles for the spectator's unit tests: a transport whose streams the
 * test drives by hand, and a clock on fake time. No network.
 *
 * @module
 */
import FakeTimers from "@sinonjs/fake-timers";
import type { SpectatorClock } from "./clock.ts";
import type { NamespaceType, SpectatorTransport, TransportCallOptions } from "./transport.ts";
import type { Owner, PlacementUpdate } from "./types.ts";

/** A snapshot from `{ executor: shards }`; every executor's address is `<id>:80`. */
export function snapshot(shards: Record<string, string[]>): PlacementUpdate {
  return {
    kind: "snapshot",
    executors: Object.entries(shards).map(([executorId, list]) => ({
      executorId,
      metadata: { address: `${executorId}:80` },
      shards: list,
    })),
  };
}

/** One watch stream, fed by the test. */
export class FakeStream implements AsyncIterable<PlacementUpdate> {
  /** The address it was opened on. */
  readonly address: string;
  /** Whether the spectator cancelled it. */
  cancelled = false;
  #queue: PlacementUpdate[] = [];
  #end: { error: unknown } | undefined;
  #wake: (() => void) | undefined;

  constructor(address: string, signal: AbortSignal) {
    this.address = address;
    const cancel = () => {
      this.cancelled = true;
      this.fail(Object.assign(new Error("1 CANCELLED: cancelled on client"), { code: 1 }));
    };
    if (signal.aborted) cancel();
    else signal.addEventListener("abort", cancel, { once: true });
  }

  /** Delivers `update`. */
  push(update: PlacementUpdate): void {
    this.#queue.push(update);
    this.#notify();
  }

  /** Fails the stream after what was pushed. */
  fail(error: unknown = new Error("14 UNAVAILABLE: connection reset")): void {
    this.#end ??= { error };
    this.#notify();
  }

  /** Ends the stream cleanly after what was pushed. */
  end(): void {
    this.#end ??= { error: undefined };
    this.#notify();
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<PlacementUpdate> {
    while (true) {
      const next = this.#queue.shift();
      if (next !== undefined) {
        yield next;
        continue;
      }
      if (this.#end !== undefined) {
        if (this.#end.error !== undefined) throw this.#end.error;
        return;
      }
      await new Promise<void>((resolve) => this.#wake = resolve);
    }
  }

  #notify(): void {
    const wake = this.#wake;
    this.#wake = undefined;
    wake?.();
  }
}

/** A transport whose streams and answers the test controls. */
export class FakeTransport implements SpectatorTransport {
  /** Every stream opened, in order. */
  readonly streams: FakeStream[] = [];
  /** Answers of `getShardOwner` by shard key; a missing key fails with UNAVAILABLE. */
  readonly owners = new Map<string, Owner>();
  /** `getShardOwner` calls as `address/key`. */
  readonly ownerCalls: string[] = [];
  /** Answer of `namespaceType`. */
  type: NamespaceType | undefined = "ephemeral";
  /** Number of `namespaceType` calls. */
  typeCalls = 0;
  /** Set by `close()`. */
  closed = false;

  watch(address: string, _namespace: string, signal: AbortSignal): AsyncIterable<PlacementUpdate> {
    const stream = new FakeStream(address, signal);
    this.streams.push(stream);
    return stream;
  }

  /** Resolves with stream number `index` once it is opened (drive fake time meanwhile). */
  async stream(index: number, tick: () => Promise<unknown>): Promise<FakeStream> {
    for (let i = 0; i < 1_000; i++) {
      const stream = this.streams[index];
      if (stream !== undefined) return stream;
      await tick();
    }
    throw new Error(`stream ${index} never opened (${this.streams.length} opened)`);
  }

  async getShardOwner(
    address: string,
    _namespace: string,
    shardKey: string,
    options?: TransportCallOptions,
  ): Promise<Owner> {
    this.ownerCalls.push(`${address}/${shardKey}`);
    await Promise.resolve();
    if (options?.signal?.aborted) throw options.signal.reason;
    const owner = this.owners.get(shardKey);
    if (owner === undefined) {
      throw Object.assign(new Error("14 UNAVAILABLE: no connection"), { code: 14 });
    }
    return owner;
  }

  namespaceType(): Promise<NamespaceType | undefined> {
    this.typeCalls++;
    return Promise.resolve(this.type);
  }

  isRetryable(error: unknown): boolean {
    return (error as { code?: number }).code === 14;
  }

  close(): void {
    this.closed = true;
  }
}

/** A {@linkcode SpectatorClock} on fake time, and the fake-timers clock that drives it. */
export function fakeClock(start = 1_000_000): {
  clock: SpectatorClock;
  fake: FakeTimers.Clock;
} {
  const fake = FakeTimers.createClock(start);
  const clock: SpectatorClock = {
    now: () => fake.now,
    setTimeout: (callback, ms) => fake.setTimeout(callback, ms),
    clearTimeout: (handle) => fake.clearTimeout(handle as FakeTimers.TimerId),
  };
  return { clock, fake };
}
