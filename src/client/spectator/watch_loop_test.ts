import assert from "node:assert/strict";
import { runWatchLoop, type WatchLoopOptions } from "./watch_loop.ts";
import { fakeClock, FakeTransport, snapshot } from "./_fake_transport.ts";
import type { PlacementUpdate } from "./types.ts";

/** A loop over addresses x, y, z on fake time; `random` is 0.5, so it starts at y and delays are half the ceiling. */
function start(overrides: Partial<WatchLoopOptions> = {}) {
  const { clock, fake } = fakeClock();
  const transport = new FakeTransport();
  const updates: { update: PlacementUpdate; address: string; first: boolean }[] = [];
  const losses: { address: string; error: Error; retryInMs: number; at: number }[] = [];
  const stop = new AbortController();
  const done = runWatchLoop({
    addresses: ["x", "y", "z"],
    namespace: "ns",
    transport,
    backoff: { baseMs: 100, maxMs: 1_000 },
    firstSnapshotTimeoutMs: 10_000,
    clock,
    random: () => 0.5,
    ...overrides,
  }, {
    update: (update, address, first) => updates.push({ update, address, first }),
    lost: (address, error, retryInMs) => losses.push({ address, error, retryInMs, at: fake.now }),
  }, stop.signal);
  const stream = (index: number) => transport.stream(index, () => fake.tickAsync(10));
  return { fake, transport, updates, losses, stop, done, stream };
}

Deno.test("watch loop retries with exponential backoff and full jitter, moving to the next address", async () => {
  const { fake, transport, losses, stop, done, stream } = start();
  const expected = [
    { address: "y", delay: 50 },
    { address: "z", delay: 100 },
    { address: "x", delay: 200 },
    { address: "y", delay: 400 },
    { address: "z", delay: 500 }, // capped at maxMs (1000) * 0.5
    { address: "x", delay: 500 },
  ];
  for (const [i, { address, delay }] of expected.entries()) {
    const current = await stream(i);
    assert.equal(current.address, address, `attempt ${i} address`);
    current.fail();
    await fake.tickAsync(0);
    assert.equal(losses[i]?.retryInMs, delay, `attempt ${i} delay`);
    await fake.tickAsync(delay - 1);
    assert.equal(transport.streams.length, i + 1, `attempt ${i + 1} came early`);
    await fake.tickAsync(1);
    assert.equal(transport.streams.length, i + 2, `attempt ${i + 1} is late`);
  }
  stop.abort();
  await done;
});

Deno.test("watch loop resets the backoff once a stream has delivered a snapshot", async () => {
  const { fake, losses, stop, done, stream, updates } = start();
  for (let i = 0; i < 3; i++) {
    (await stream(i)).fail();
    await fake.tickAsync(1_000);
  }
  assert.deepEqual(losses.map((l) => l.retryInMs), [50, 100, 200]);
  const healthy = await stream(3);
  healthy.push(snapshot({ a: ["0"] }));
  healthy.push(snapshot({ a: ["0", "1"] }));
  await fake.tickAsync(0);
  assert.deepEqual(updates.map((u) => u.first), [true, false]);
  healthy.fail();
  await fake.tickAsync(0);
  assert.equal(losses[3]?.retryInMs, 50);
  stop.abort();
  await done;
});

Deno.test("watch loop drops a stream that sends no snapshot within firstSnapshotTimeoutMs", async () => {
  const { fake, losses, stop, done, stream } = start({ firstSnapshotTimeoutMs: 1_000 });
  const silent = await stream(0);
  await fake.tickAsync(999);
  assert.equal(silent.cancelled, false);
  await fake.tickAsync(1);
  assert.equal(silent.cancelled, true);
  assert.match(losses[0]!.error.message, /No snapshot from y within 1000 ms/);
  const next = await stream(1);
  assert.equal(next.address, "z");
  next.push(snapshot({}));
  await fake.tickAsync(60_000);
  assert.equal(next.cancelled, false, "a stream that delivered is never timed out");
  stop.abort();
  await done;
});

Deno.test("watch loop reopens a stream that the service ended cleanly", async () => {
  const { fake, losses, stop, done, stream } = start();
  const first = await stream(0);
  first.push(snapshot({ a: ["0"] }));
  first.end();
  await fake.tickAsync(0);
  assert.match(losses[0]!.error.message, /The service at y ended the watch stream/);
  assert.equal((await stream(1)).address, "z");
  stop.abort();
  await done;
});

Deno.test("watch loop stops on abort, cancelling the stream and leaving no timer", async () => {
  const during = start();
  const open = await during.stream(0);
  during.stop.abort();
  await during.done;
  assert.equal(open.cancelled, true);
  assert.equal(during.fake.countTimers(), 0);

  const backingOff = start();
  (await backingOff.stream(0)).fail();
  await backingOff.fake.tickAsync(0);
  assert.equal(backingOff.fake.countTimers(), 1, "the backoff timer");
  backingOff.stop.abort();
  await backingOff.done;
  assert.equal(backingOff.fake.countTimers(), 0);
  assert.equal(backingOff.transport.streams.length, 1);
});
