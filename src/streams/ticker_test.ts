import assert from "node:assert/strict";
import FakeTimers from "@sinonjs/fake-timers";
import { fakeClock as fakeTime } from "../core/fake_clock.ts";
import { ticker } from "./ticker.ts";

function fakeClock() {
  return FakeTimers.install({ toFake: ["setTimeout", "clearTimeout"] });
}

/** Tracks one read so a test can tell whether it has resolved yet. */
function track<T>(promise: Promise<ReadableStreamReadResult<T>>) {
  const state: { result?: ReadableStreamReadResult<T> } = {};
  promise.then((r) => state.result = r);
  return state;
}

Deno.test("ticker ticks once every period while read", async () => {
  const clock = fakeClock();
  try {
    const controller = new AbortController();
    const reader = ticker(100, controller.signal).getReader();
    for (const expected of [1, 2, 3]) {
      const read = track(reader.read());
      await clock.tickAsync(99);
      assert.equal(read.result, undefined, `tick ${expected} came early`);
      await clock.tickAsync(1);
      assert.deepEqual(read.result, { done: false, value: expected });
    }
    controller.abort();
  } finally {
    clock.uninstall();
  }
});

Deno.test("ticker gives a slow reader the next tick a period after it asks, not a backlog", async () => {
  const clock = fakeClock();
  try {
    const controller = new AbortController();
    const reader = ticker(100, controller.signal).getReader();
    const first = track(reader.read());
    await clock.tickAsync(100);
    assert.equal(first.result?.value, 1);
    await clock.tickAsync(1_000); // the reader is busy for ten periods
    const second = track(reader.read());
    await clock.tickAsync(0);
    assert.equal(second.result, undefined, "no tick was queued while the reader was busy");
    await clock.tickAsync(100);
    assert.deepEqual(second.result, { done: false, value: 2 });
    controller.abort();
  } finally {
    clock.uninstall();
  }
});

Deno.test("ticker closes when the signal aborts, during a wait or before a read", async () => {
  const clock = fakeClock();
  try {
    const controller = new AbortController();
    const reader = ticker(100, controller.signal).getReader();
    const read = track(reader.read());
    await clock.tickAsync(50);
    controller.abort();
    await clock.tickAsync(0);
    assert.deepEqual(read.result, { done: true, value: undefined });
    assert.equal(clock.countTimers(), 0, "the pending timer was cleared");

    const aborted = ticker(100, AbortSignal.abort()).getReader();
    const early = track(aborted.read());
    await clock.tickAsync(0);
    assert.deepEqual(early.result, { done: true, value: undefined });
  } finally {
    clock.uninstall();
  }
});

Deno.test("ticker rejects a period that is not positive", () => {
  const signal = new AbortController().signal;
  for (const period of [0, -5, NaN]) {
    assert.throws(() => ticker(period, signal), (error: unknown) => {
      assert.ok(error instanceof RangeError);
      assert.match(error.message, new RegExp(String(period)));
      return true;
    });
  }
});

Deno.test("ticker follows the clock it is given and clears its timer on abort", async () => {
  const time = fakeTime();
  const controller = new AbortController();
  const reader = ticker(1_000, controller.signal, { clock: time.clock }).getReader();
  const read = track(reader.read());
  await time.tick(999);
  assert.equal(read.result, undefined);
  await time.tick(1);
  assert.deepEqual(read.result, { done: false, value: 1 });
  const next = track(reader.read());
  await time.settle();
  assert.equal(time.pending(), 1, "one timer while a read waits");
  controller.abort();
  await time.settle();
  assert.deepEqual(next.result, { done: true, value: undefined });
  assert.equal(time.pending(), 0);
});
