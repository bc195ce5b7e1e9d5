import assert from "node:assert/strict";
import { createSpectator } from "./create_spectator.ts";
import {
  MissingMetadataError,
  ShardOwnerLookupError,
  SpectatorClosedError,
  SpectatorNotReadyError,
} from "./errors.ts";
import type { SpectatorOptions } from "./options.ts";
import { fakeClock, FakeTransport, snapshot } from "./_fake_transport.ts";

/** A spectator of "ns" on addresses x, y over a fake transport and fake time; it starts at x. */
function setup(overrides: Partial<SpectatorOptions> = {}) {
  const { clock, fake } = fakeClock();
  const transport = new FakeTransport();
  const spectator = createSpectator({
    addresses: ["x", "y"],
    namespace: "ns",
    transport,
    clock,
    random: () => 0,
    ...overrides,
  });
  const stream = (index: number) => transport.stream(index, () => fake.tickAsync(10));
  return { spectator, transport, fake, stream };
}

Deno.test("ownerOf throws SpectatorNotReadyError before the first snapshot, then answers from memory", async () => {
  const { spectator, stream } = setup();
  assert.throws(() => spectator.ownerOf("0"), SpectatorNotReadyError);
  assert.throws(() => spectator.addressOf("0"), /not ready: no snapshot has arrived yet/);
  (await stream(0)).push(snapshot({ a: ["0", "1"], b: ["2"] }));
  await spectator.ready;
  assert.equal(spectator.ownerOf("0")?.executorId, "a");
  assert.equal(spectator.ownerOf("2")?.executorId, "b");
  assert.equal(spectator.ownerOf("9"), undefined);
  assert.equal(spectator.addressOf("2"), "b:80");
  assert.equal(spectator.addressOf("9"), undefined);
  assert.equal(spectator.placement?.version, 1);
  await spectator.close();
});

Deno.test("owner() waits for the first snapshot, and gives up when its signal aborts", async () => {
  const { spectator, stream } = setup();
  const controller = new AbortController();
  const abandoned = spectator.owner("0", { signal: controller.signal });
  const waiting = spectator.owner("0");
  controller.abort(new Error("caller gave up"));
  await assert.rejects(abandoned, /caller gave up/);
  (await stream(0)).push(snapshot({ a: ["0"] }));
  assert.equal((await waiting)?.executorId, "a");
  await spectator.close();
});

Deno.test("an ephemeral miss asks GetShardOwner once for concurrent asks and keeps the answer until the next snapshot", async () => {
  const { spectator, transport, fake, stream } = setup();
  transport.owners.set("k", { executorId: "b", metadata: { address: "b:80" } });
  const open = await stream(0);
  open.push(snapshot({ a: ["0"] }));
  await spectator.ready;
  assert.equal(spectator.ownerOf("k"), undefined);
  const [one, two] = await Promise.all([spectator.owner("k"), spectator.address("k")]);
  assert.equal(one?.executorId, "b");
  assert.equal(two, "b:80");
  assert.deepEqual(transport.ownerCalls, ["x/k"], "one call, to the connected address");
  assert.equal(transport.typeCalls, 1);
  assert.equal(spectator.ownerOf("k")?.executorId, "b", "cached for synchronous lookups");
  open.push(snapshot({ a: ["0"], c: [] }));
  await fake.tickAsync(0);
  assert.equal(spectator.placement?.version, 2);
  assert.equal(spectator.ownerOf("k"), undefined, "the next snapshot replaces the cache");
  await spectator.close();
});

Deno.test("a miss in a fixed namespace resolves undefined without asking, even while the service is down", async () => {
  const learned = setup();
  learned.transport.type = "fixed";
  const open = await learned.stream(0);
  open.push(snapshot({ a: ["0"] }));
  await learned.fake.tickAsync(0);
  assert.equal(learned.transport.typeCalls, 1, "the type is learned with the first snapshot");
  open.fail();
  await learned.fake.tickAsync(0);
  assert.equal(learned.spectator.staleness().connected, false);
  assert.equal(await learned.spectator.owner("7"), undefined);
  assert.equal(await learned.spectator.owner("8"), undefined);
  assert.equal(learned.transport.typeCalls, 1, "the type is learned once");
  assert.deepEqual(learned.transport.ownerCalls, []);
  await learned.spectator.close();

  const configured = setup({ namespaceType: "fixed" });
  (await configured.stream(0)).push(snapshot({ a: ["0"] }));
  assert.equal(await configured.spectator.owner("7"), undefined);
  assert.equal(configured.transport.typeCalls, 0);
  await configured.spectator.close();
});

Deno.test("a failed lookup tries every address, then throws ShardOwnerLookupError with the status code", async () => {
  const { spectator, transport, stream } = setup({ namespaceType: "ephemeral" });
  (await stream(0)).push(snapshot({}));
  const error = await spectator.owner("k").catch((e) => e);
  assert.ok(error instanceof ShardOwnerLookupError);
  assert.equal(error.code, "UNAVAILABLE");
  assert.equal(error.grpcCode, 14);
  assert.equal(error.retryable, true);
  assert.equal(error.shardKey, "k");
  assert.match(
    error.message,
    /Cannot find the owner of shard "k" in namespace "ns": The service is unavailable/,
  );
  assert.deepEqual(transport.ownerCalls, ["x/k", "y/k"]);
  await spectator.close();
});

Deno.test("staleness: age 0 while connected, growing while disconnected (answers kept), 0 after reconnecting", async () => {
  const { spectator, fake, stream } = setup();
  const before = spectator.staleness();
  assert.equal(before.connected, false);
  assert.equal(before.ageMs, Infinity);
  assert.equal(before.lastUpdateMs, undefined);

  const first = await stream(0);
  first.push(snapshot({ a: ["0"] }));
  await spectator.ready;
  const updatedAt = fake.now;
  await fake.tickAsync(5_000);
  assert.deepEqual(
    { ...spectator.staleness() },
    {
      connected: true,
      address: "x",
      lastUpdateMs: updatedAt,
      ageMs: 0,
      disconnectedAtMs: undefined,
      lastError: undefined,
    },
  );

  first.fail(new Error("14 UNAVAILABLE: connection reset"));
  await fake.tickAsync(0);
  const lostAt = fake.now;
  const silent = await stream(1); // the next address accepts but says nothing
  await fake.tickAsync(3_000 - (fake.now - lostAt));
  const down = spectator.staleness();
  assert.equal(down.connected, false);
  assert.equal(down.address, undefined);
  assert.equal(down.ageMs, 3_000);
  assert.equal(down.disconnectedAtMs, lostAt);
  assert.match(String(down.lastError?.message), /connection reset/);
  assert.equal(spectator.ownerOf("0")?.executorId, "a", "still answering");

  silent.push(snapshot({ a: ["0"], b: ["1"] }));
  await fake.tickAsync(0);
  const back = spectator.staleness();
  assert.equal(back.connected, true);
  assert.equal(back.address, "y");
  assert.equal(back.ageMs, 0);
  assert.equal(back.lastError, undefined);
  assert.equal(spectator.ownerOf("1")?.executorId, "b", "caught up");
  await spectator.close();
});

Deno.test("an identical snapshot after a reconnect keeps the version and wakes no changes() reader", async () => {
  const { spectator, fake, stream } = setup();
  const reader = spectator.changes();
  const first = await stream(0);
  first.push(snapshot({ a: ["0", "1"] }));
  assert.equal((await reader.next()).value?.version, 1);
  const next = reader.next();
  let woken = false;
  next.then(() => woken = true);
  first.fail();
  (await stream(1)).push(snapshot({ a: ["1", "0"] }));
  await fake.tickAsync(0);
  assert.equal(spectator.placement?.version, 1);
  assert.equal(woken, false);
  (await stream(1)).push(snapshot({ a: ["0"], b: ["1"] }));
  const change = (await next).value!;
  assert.equal(change.version, 2);
  assert.deepEqual(change.moved, [{ shard: "1", from: "a", to: "b" }]);
  await spectator.close();
});

Deno.test("addressOf throws MissingMetadataError when the owner reported no such key", async () => {
  const { spectator, stream } = setup();
  (await stream(0)).push({
    kind: "snapshot",
    executors: [{ executorId: "a", metadata: { grpc: "a:90" }, shards: ["0"] }],
  });
  await spectator.ready;
  assert.equal(spectator.addressOf("0", "grpc"), "a:90");
  const error = (() => {
    try {
      return spectator.addressOf("0");
    } catch (e) {
      return e;
    }
  })();
  assert.ok(error instanceof MissingMetadataError);
  assert.equal(error.executorId, "a");
  assert.match(error.message, /has no metadata "address" \(its metadata keys: "grpc"\)/);
  await assert.rejects(spectator.address("0", { metadataKey: "toString" }), MissingMetadataError);
  await spectator.close();
});

Deno.test("waitReady gives up after timeoutMs with the last connection error as cause", async () => {
  const { spectator, fake, stream } = setup();
  (await stream(0)).fail(new Error("14 UNAVAILABLE: connection refused"));
  const waiting = assert.rejects(spectator.waitReady({ timeoutMs: 1_000 }), (error) => {
    assert.ok(error instanceof SpectatorNotReadyError);
    assert.equal(error.code, "TIMEOUT");
    assert.match(error.message, /no snapshot within 1000 ms \(last error: .*connection refused\)/);
    return true;
  });
  await fake.tickAsync(1_000);
  await waiting;
  await spectator.close();
});

Deno.test("waitReady rejects at once when the service refuses the watch for good, and watching stops", async () => {
  const { spectator, transport, fake, stream } = setup();
  const notFound = Object.assign(new Error('5 NOT_FOUND: Namespace "ns" not found'), {
    code: 5,
    details: 'Namespace "ns" not found',
  });
  const waiting = spectator.waitReady({ timeoutMs: 60_000 }).catch((e) => e);
  (await stream(0)).fail(notFound);
  const error = await waiting;
  assert.equal(error.code, "NAMESPACE_NOT_FOUND");
  assert.equal(error.retryable, false);
  assert.match(error.message, /^Namespace "ns" not found at x: check the name/);
  await assert.rejects(spectator.ready, (e) => e === error);
  await assert.rejects(spectator.waitReady(), (e) => e === error, "later calls too, at once");
  assert.ok(fake.now < 1_001_000, `no wait for the timeout (${fake.now - 1_000_000} ms)`);
  await fake.tickAsync(10_000);
  assert.equal(transport.streams.length, 1, "no retry");
  assert.equal(transport.closed, true);
  assert.equal(fake.countTimers(), 0);
  assert.throws(() => spectator.ownerOf("0"), (e: SpectatorNotReadyError) => e.cause === error);
  await spectator.close();
});

Deno.test("close cancels the stream, rejects waiting calls, ends changes() and leaves no timer", async () => {
  const { spectator, transport, fake, stream } = setup();
  const open = await stream(0);
  const waiting = spectator.owner("0");
  const reader = spectator.changes().next();
  await spectator.close();
  await assert.rejects(waiting, SpectatorClosedError);
  await assert.rejects(spectator.ready, SpectatorClosedError);
  assert.equal((await reader).done, true);
  assert.equal(open.cancelled, true);
  assert.equal(transport.closed, true);
  assert.equal(fake.countTimers(), 0);
  assert.throws(() => spectator.ownerOf("0"), SpectatorClosedError);
  await spectator.close(); // idempotent
});

Deno.test("await using closes the spectator, also after it was ready", async () => {
  const { transport, fake, stream, spectator } = setup();
  {
    await using disposable = spectator;
    (await stream(0)).push(snapshot({ a: ["0"] }));
    await disposable.ready;
  }
  assert.equal(transport.closed, true);
  assert.equal(fake.countTimers(), 0);
  assert.equal(spectator.staleness().connected, false);
  assert.throws(() => spectator.ownerOf("0"), SpectatorClosedError);
});

Deno.test("in a key-range namespace ownerOf routes any key to its slice's owner, and follows new slice maps", async () => {
  const { spectator, stream, fake } = setup();
  const half = [0x80, 0, 0, 0, 0, 0, 0, 0];
  // Version 1; slices 0 = [0, 2^63) and 1 = [2^63, 2^64); next id 2.
  const two = new Uint8Array([1, 2, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, ...half, 1, 0]);
  const feed = await stream(0);
  feed.push({ ...snapshot({ a: ["0"], b: ["1"] }), sliceMap: two });
  await spectator.ready;
  const keys = Array.from({ length: 50 }, (_, i) => `user:${i}`);
  const owners = new Set(keys.map((k) => spectator.ownerOf(k)?.executorId));
  assert.deepEqual([...owners].sort(), ["a", "b"]);
  assert.equal(spectator.addressOf("user:1"), `${spectator.ownerOf("user:1")!.executorId}:80`);
  // Moves of slice 1 with the same slices (no slice map): its keys follow at once.
  const moveSliceOne = async (owner: string) => {
    feed.push({
      kind: "delta",
      executors: [],
      owners: [{ shard: "1", owner }],
      removedExecutors: [],
    });
    await fake.tickAsync(10);
  };
  await moveSliceOne("a");
  for (const key of keys) assert.equal(spectator.ownerOf(key)?.executorId, "a");
  await moveSliceOne("b");
  assert.deepEqual(new Set(keys.map((k) => spectator.ownerOf(k)?.executorId)), owners);
  // A merge: slice 1 is retired, slice 0 covers the line; every key goes to a.
  const one = new Uint8Array([1, 1, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1]);
  feed.push({
    kind: "delta",
    executors: [],
    owners: [{ shard: "1", owner: undefined }],
    removedExecutors: [],
    sliceMap: one,
  });
  await fake.tickAsync(10);
  for (const key of keys) assert.equal(spectator.ownerOf(key)?.executorId, "a");
  assert.deepEqual(spectator.ownersOf("user:3").map((o) => o.executorId), ["a"]);
  await spectator.close();
});
