import assert from "node:assert/strict";
import { StoreUnavailableError } from "../core/errors.ts";
import { fakeClock } from "../core/fake_clock.ts";
import { silentLogger } from "../core/logger.ts";
import type { ExecutorWrite } from "../core/types.ts";
import { MemoryExecutorStore, track } from "./_testing.ts";
import type { NamespaceWrites, WriteRound } from "./classify_writes.ts";
import { storeSink } from "./store_sink.ts";
import type { Pending } from "./submission.ts";

const write = (executorId: string): ExecutorWrite => ({
  executorId,
  heartbeat: { status: "ACTIVE", timestampMs: 1 },
});

function waiter(outcomes: unknown[]): Pending {
  return {
    resolve: (revision) => outcomes.push(revision),
    reject: (error) => outcomes.push(error),
  };
}

function round(heartbeats: number, ...namespaces: NamespaceWrites[]): WriteRound {
  return { heartbeats, namespaces };
}

Deno.test("store sink writes each namespace once per round and resolves its waiters with the revision", async () => {
  const store = new MemoryExecutorStore({ now: () => 0, monotonic: () => 0 });
  const a: unknown[] = [], b: unknown[] = [], idle: unknown[] = [];
  const counts: [number, number][] = [];
  await ReadableStream.from([
    round(
      5,
      { namespace: "a", writes: [write("e1"), write("e2")], waiting: [waiter(a), waiter(a)] },
      { namespace: "b", writes: [write("e1")], waiting: [waiter(b)] },
      { namespace: "c", writes: [], waiting: [waiter(idle)] },
    ),
  ]).pipeTo(storeSink(store, { logger: silentLogger, onBatch: (h, w) => counts.push([h, w]) }));
  assert.deepEqual(store.calls.map((c) => [c.namespace, c.writes.length]), [["a", 2], ["b", 1]]);
  assert.deepEqual([a, b, idle], [[1, 1], [2], [undefined]]);
  assert.deepEqual(counts, [[5, 3]]);
});

Deno.test("store sink rejects only the failed namespace's waiters, with UNAVAILABLE, and goes on", async () => {
  const store = new MemoryExecutorStore({ now: () => 0, monotonic: () => 0 });
  const failing = {
    writeExecutors: (namespace: string, writes: readonly ExecutorWrite[]) =>
      namespace === "down"
        ? Promise.reject(new Error("etcd down"))
        : store.writeExecutors(namespace, writes),
  };
  const down: unknown[] = [], up: unknown[] = [], next: unknown[] = [];
  const counts: [number, number][] = [];
  await ReadableStream.from([
    round(
      2,
      { namespace: "down", writes: [write("e1")], waiting: [waiter(down)] },
      { namespace: "up", writes: [write("e1")], waiting: [waiter(up)] },
    ),
    round(1, { namespace: "up", writes: [write("e2")], waiting: [waiter(next)] }),
  ]).pipeTo(storeSink(failing, { logger: silentLogger, onBatch: (h, w) => counts.push([h, w]) }));
  assert.ok(down[0] instanceof StoreUnavailableError);
  assert.match(String((down[0] as Error).cause), /etcd down/);
  assert.deepEqual([up, next], [[1], [2]]);
  assert.deepEqual(counts, [[2, 1], [1, 1]], "only what was written is counted");
});

Deno.test("store sink asks for the next round only once the previous one is written", async () => {
  const time = fakeClock();
  const store = new MemoryExecutorStore({ now: () => 0, monotonic: () => 0 });
  store.hold();
  let pulls = 0;
  const rounds = new ReadableStream<WriteRound>({
    pull(controller) {
      pulls++;
      if (pulls > 2) return controller.close();
      controller.enqueue(round(1, { namespace: "ns", writes: [write(`e${pulls}`)], waiting: [] }));
    },
  }, { highWaterMark: 0 });
  const done = track(rounds.pipeTo(storeSink(store, { logger: silentLogger })));
  await time.settle();
  assert.equal(pulls, 1, "no round is taken ahead while one is being written");
  store.release();
  await time.settle();
  assert.equal(pulls, 3);
  assert.ok(done.settled);
});
