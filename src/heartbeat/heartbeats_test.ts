import assert from "node:assert/strict";
import { NamespaceNotFoundError, ShuttingDownError } from "../core/errors.ts";
import { fakeClock } from "../core/fake_clock.ts";
import { silentLogger } from "../core/logger.ts";
import { NamespaceState } from "../state/namespace_state.ts";
import { MemoryExecutorStore, rawHeartbeat, track } from "./_testing.ts";
import {
  type HeartbeatNamespace,
  type HeartbeatOwnership,
  HeartbeatResponder,
} from "./heartbeats.ts";

/** A namespace whose picture is at `revision` until `advance` moves it on. */
class FollowedNamespace implements HeartbeatNamespace {
  readonly view = new NamespaceState("ns", { heartbeatTtlMs: 10_000 });
  readonly recordEvery: boolean;
  readonly ownership: HeartbeatOwnership;
  readonly #ends = new AbortController();
  readonly #store: MemoryExecutorStore;
  #waits: { revision: number; resolve: () => void }[] = [];

  constructor(store: MemoryExecutorStore, leaseMs?: number) {
    this.#store = store;
    this.ownership = leaseMs === undefined ? { mode: "available" } : { mode: "exclusive", leaseMs };
    this.recordEvery = leaseMs !== undefined;
  }

  get lifetime(): AbortSignal {
    return this.#ends.signal;
  }

  executor(id: string) {
    return this.#store.namespace("ns").executor(id);
  }

  /** The picture at `revision`, with `assign` committed. */
  advance(revision: number, assign: Record<string, string[]> = {}): void {
    this.view.apply({
      revision,
      events: [{ type: "assignment", seq: revision, delta: { assign, unassign: [], remove: [] } }],
    }, 0);
    for (const wait of this.#waits.filter((w) => w.revision <= revision)) wait.resolve();
    this.#waits = this.#waits.filter((w) => w.revision > revision);
  }

  /** The runtime stops (its definition changed). */
  end(): void {
    this.#ends.abort(new Error("replaced"));
  }

  waitForRevision(revision: number, signal: AbortSignal): Promise<void> {
    if (this.view.revision >= revision) return Promise.resolve();
    return new Promise((resolve, reject) => {
      this.#waits.push({ revision, resolve });
      signal.addEventListener("abort", () => reject(signal.reason), { once: true });
    });
  }
}

function setup(leaseMs?: number) {
  const time = fakeClock(1_000);
  const store = new MemoryExecutorStore(time.clock);
  const served: { ns: FollowedNamespace | undefined } = {
    ns: new FollowedNamespace(store, leaseMs),
  };
  const stop = new AbortController();
  const heartbeats = new HeartbeatResponder(store, {
    namespaces: (name) => name === "ns" ? served.ns : undefined,
    flushMs: 250,
    clock: time.clock,
    logger: silentLogger,
    stop: stop.signal,
  });
  return { time, store, served, stop, heartbeats };
}

Deno.test("an available namespace is answered at once from the picture followed now", async () => {
  const { served, heartbeats } = setup();
  served.ns!.advance(3, { e1: ["b", "a"] });
  const answer = await heartbeats.handle(rawHeartbeat("e1"));
  assert.deepEqual(answer.shards(), [
    { shardKey: "a", fencingToken: 3 },
    { shardKey: "b", fencingToken: 3 },
  ]);
  assert.equal(answer.exclusive, undefined);
  assert.notEqual(answer.stamp, undefined, "an available answer can be kept encoded");
  await heartbeats.close();
});

Deno.test("an exclusive namespace is answered from a picture at least as new as the heartbeat's record", async () => {
  const { time, served, heartbeats } = setup(5_000);
  const answer = track(heartbeats.handle(rawHeartbeat("e1"))); // recorded at revision 1
  await time.settle();
  assert.equal(answer.settled, false, "the picture is older than the record: no answer yet");
  served.ns!.advance(1, { e1: ["s"] });
  await time.settle();
  assert.deepEqual(answer.value?.exclusive, { leaseMs: 5_000, revision: 1 });
  assert.deepEqual(answer.value?.shards(), [{ shardKey: "s", fencingToken: 1 }]);
  await heartbeats.close();
});

Deno.test("a definition changed during the wait is waited on in its new runtime", async () => {
  const { time, store, served, heartbeats } = setup(5_000);
  const first = served.ns!;
  const answer = track(heartbeats.handle(rawHeartbeat("e1")));
  await time.settle();
  const second = served.ns = new FollowedNamespace(store, 5_000);
  first.end();
  await time.settle();
  assert.equal(answer.settled, false);
  second.advance(1, { e1: ["t"] });
  await time.settle();
  assert.deepEqual(answer.value?.shards(), [{ shardKey: "t", fencingToken: 1 }]);
  await heartbeats.close();
});

Deno.test("a namespace deleted during the wait fails the heartbeat with NOT_FOUND", async () => {
  const { time, served, heartbeats } = setup(5_000);
  const first = served.ns!;
  const answer = track(heartbeats.handle(rawHeartbeat("e1")));
  await time.settle();
  served.ns = undefined;
  first.end();
  await time.settle();
  assert.ok(answer.error instanceof NamespaceNotFoundError);
  await heartbeats.close();
});

Deno.test("the instance's stop ends a wait with its reason", async () => {
  const { time, stop, heartbeats } = setup(5_000);
  const answer = track(heartbeats.handle(rawHeartbeat("e1")));
  await time.settle();
  stop.abort(new ShuttingDownError());
  await time.settle();
  assert.ok(answer.error instanceof ShuttingDownError);
  await heartbeats.close();
});
