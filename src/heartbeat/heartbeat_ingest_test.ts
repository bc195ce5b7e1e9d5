import assert from "node:assert/strict";
import { InvalidArgumentError, NamespaceNotFoundError } from "../core/errors.ts";
import { ShuttingDownError, StoreUnavailableError } from "../core/errors.ts";
import { fakeClock } from "../core/fake_clock.ts";
import { silentLogger } from "../core/logger.ts";
import { MemoryExecutorStore, rawHeartbeat, track } from "./_testing.ts";
import { HeartbeatIngest, type HeartbeatIngestOptions } from "./heartbeat_ingest.ts";

const REFRESH_MS = 1_000; // time that lets a record age past a flush or two
const FLUSH_MS = 250;

function setup(over: Partial<HeartbeatIngestOptions> & { exclusive?: string[] } = {}) {
  const time = fakeClock(1_000_000);
  const store = new MemoryExecutorStore(time.clock);
  const batches: [number, number][] = [];
  const ingest = new HeartbeatIngest(store, {
    namespaces: store.lookup(["ns", "other"], over.exclusive),
    flushMs: FLUSH_MS,
    clock: time.clock,
    logger: silentLogger,
    onBatch: (heartbeats, writes) => batches.push([heartbeats, writes]),
    ...over,
  });
  return { time, store, ingest, batches };
}

Deno.test("ingest resolves a new executor's heartbeat once written, with the write's revision", async () => {
  const { time, store, ingest, batches } = setup();
  assert.equal(await ingest.submit(rawHeartbeat("e1")), 1);
  assert.deepEqual(store.calls.map((c) => c.writes.map((w) => w.executorId)), [["e1"]]);
  await time.settle();
  assert.deepEqual(batches, [[1, 1]], "counted once the round's heartbeats are settled");
  await ingest.close();
});

Deno.test("ingest writes heartbeats that arrive during a write together, in the next round", async () => {
  const { time, store, ingest, batches } = setup();
  store.hold();
  const first = track(ingest.submit(rawHeartbeat("e1")));
  await time.settle();
  assert.equal(store.inFlight, 1);
  const later = ["e2", "e3", "e2", "e4"].map((id, i) =>
    track(ingest.submit(rawHeartbeat(id, { metadata: { n: String(i) } })))
  );
  await time.settle();
  assert.equal(store.calls.length, 1, "nothing more is written while a write is in flight");
  assert.ok(!first.settled && later.every((s) => !s.settled));
  store.release();
  await time.settle();
  assert.equal(first.value, 1);
  assert.deepEqual(store.calls[1]?.writes.map((w) => [w.executorId, w.metadata?.n]), [
    ["e2", "2"], // the executor's latest heartbeat decides
    ["e3", "1"],
    ["e4", "3"],
  ]);
  assert.deepEqual(later.map((s) => s.value), [2, 2, 2, 2]);
  assert.deepEqual(batches, [[1, 1], [4, 3]]);
  await ingest.close();
});

Deno.test("ingest resolves a renewal at once and writes all renewals with the next flush", async () => {
  const { time, store, ingest, batches } = setup();
  for (const id of ["e1", "e2"]) await ingest.submit(rawHeartbeat(id));
  await time.tick(FLUSH_MS);
  assert.deepEqual(
    store.calls.at(-1)?.writes.map((w) => w.executorId),
    ["e1", "e2"],
    "a write made before answering is renewed once more after it",
  );
  const calls = store.calls.length;
  assert.equal(await ingest.submit(rawHeartbeat("e1")), undefined, "resolved without a revision");
  assert.equal(await ingest.submit(rawHeartbeat("e2")), undefined);
  assert.equal(store.calls.length, calls, "not written yet");
  await time.settle();
  assert.deepEqual(batches.slice(-2), [[1, 0], [1, 0]], "a round of renewals writes nothing");
  await time.tick(FLUSH_MS);
  assert.deepEqual(store.calls.slice(calls).map((c) => c.writes.map((w) => w.executorId)), [
    ["e1", "e2"],
  ]);
  assert.equal(await ingest.submit(rawHeartbeat("e1")), undefined, "recorded too: it is answered");
  await time.tick(FLUSH_MS);
  assert.equal(store.calls.length, calls + 2);
  await ingest.close();
});

Deno.test("ingest refuses renewals (UNAVAILABLE) while the store is known unreachable", async () => {
  let reachable = true;
  const { time, ingest } = setup({ storeReachable: () => reachable });
  await ingest.submit(rawHeartbeat("e1"));
  await time.tick(REFRESH_MS);
  reachable = false;
  await assert.rejects(ingest.submit(rawHeartbeat("e1")), (error: unknown) => {
    assert.ok(error instanceof StoreUnavailableError);
    assert.match(String((error as Error).cause), /unreachable/);
    return true;
  });
  assert.equal(
    await ingest.submit(rawHeartbeat("e1", { status: "EXECUTOR_STATUS_DRAINING" })),
    3,
    "a change is still attempted (revision 2 was the renewal that followed the first write)",
  );
  await ingest.close();
});

Deno.test("ingest writes the record with the reports for every heartbeat of an exclusive namespace", async () => {
  const { store, ingest } = setup({ exclusive: ["ns"] });
  const reports = { "7": { status: "SHARD_STATUS_READY", load: 1 } };
  assert.equal(await ingest.submit(rawHeartbeat("e1", { reports })), 1);
  assert.equal(await ingest.submit(rawHeartbeat("e1", { reports })), 2, "unchanged, still written");
  assert.deepEqual(
    Object.fromEntries(store.calls[1]?.writes[0]?.reports ?? []),
    { "7": { status: "READY", load: 1 } },
  );
  await ingest.close();
});

Deno.test("ingest rejects invalid heartbeats and unknown namespaces without writing", async () => {
  const { store, ingest } = setup();
  await assert.rejects(
    ingest.submit(rawHeartbeat("e1", { namespace: "bad name" })),
    (e: unknown) => e instanceof InvalidArgumentError && e.field === "namespace",
  );
  await assert.rejects(
    ingest.submit(rawHeartbeat("e1", { namespace: "nowhere", executorId: "" })),
    NamespaceNotFoundError,
  );
  await assert.rejects(
    ingest.submit(rawHeartbeat("e1", { status: "SLEEPING" })),
    (e: unknown) => e instanceof InvalidArgumentError && e.field === "status",
  );
  assert.equal(store.calls.length, 0);
  await ingest.close();
});

Deno.test("ingest rejects a failed write's heartbeats (UNAVAILABLE) and goes on", async () => {
  const { store, ingest } = setup();
  store.failure = new Error("etcd down");
  await assert.rejects(ingest.submit(rawHeartbeat("e1")), (error: unknown) => {
    assert.ok(error instanceof StoreUnavailableError);
    assert.match(String((error as Error).cause), /etcd down/);
    return true;
  });
  store.failure = undefined;
  assert.equal(await ingest.submit(rawHeartbeat("e1")), 1);
  await ingest.close();
});

Deno.test("ingest sheds heartbeats past maxQueued while the store is slow, refusing them at once", async () => {
  const { time, store, ingest } = setup({ maxQueued: 3 });
  store.hold();
  const first = track(ingest.submit(rawHeartbeat("e0")));
  await time.settle();
  const queued = ["e1", "e2", "e3"].map((id) => track(ingest.submit(rawHeartbeat(id))));
  const shed = track(ingest.submit(rawHeartbeat("e4")));
  await time.settle();
  assert.ok(shed.error instanceof StoreUnavailableError, "refused at once, not held");
  assert.match(String(shed.error), /3 heartbeats already wait/);
  assert.ok(queued.every((s) => !s.settled));
  store.release();
  await time.settle();
  assert.equal(first.value, 1);
  assert.deepEqual(queued.map((s) => s.value), [2, 2, 2]);
  await ingest.close();
});

Deno.test("ingest close writes what is queued and flushes the renewals", async () => {
  const { time, store, ingest } = setup();
  await ingest.submit(rawHeartbeat("e1"));
  await time.tick(REFRESH_MS);
  await ingest.submit(rawHeartbeat("e1")); // a renewal, buffered
  store.hold();
  const queued = [
    track(ingest.submit(rawHeartbeat("e2"))),
    track(ingest.submit(rawHeartbeat("e3"))),
  ];
  await time.settle();
  const closed = track(ingest.close());
  await assert.rejects(ingest.submit(rawHeartbeat("e4")), ShuttingDownError);
  await time.settle();
  assert.equal(closed.settled, false, "waits for the writes");
  store.release();
  await time.settle();
  assert.ok(closed.settled);
  assert.ok(queued.every((s) => typeof s.value === "number"));
  assert.deepEqual(
    store.calls.at(-1)?.writes.map((w) => w.executorId),
    ["e1", "e2", "e3"],
    "last flush: e1's renewal, and the renewals that follow e2's and e3's writes",
  );
});

Deno.test("ingest cancelled by its signal rejects waiting heartbeats and stops its timer", async () => {
  const stop = new AbortController();
  const { time, store, ingest } = setup({ signal: stop.signal });
  await ingest.submit(rawHeartbeat("e1"));
  store.hold();
  const waiting = track(ingest.submit(rawHeartbeat("e2")));
  await time.settle();
  stop.abort(new Error("stop"));
  await time.settle();
  assert.ok(waiting.error instanceof ShuttingDownError, "not left waiting for the store");
  await assert.rejects(ingest.submit(rawHeartbeat("e3")), ShuttingDownError);
  store.release();
  await ingest.close();
  assert.equal(time.pending(), 0, "the refresh timer is gone");
});
