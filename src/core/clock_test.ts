import assert from "node:assert/strict";
import FakeTimers from "@sinonjs/fake-timers";
import { type Clock, sleep, startTimer, timeoutSignal } from "./clock.ts";
import { fakeClock } from "./fake_clock.ts";

Deno.test("sleep waits on the clock it is given, not on real time", async () => {
  const time = fakeClock();
  let woke = false;
  const sleeping = sleep(10_000, undefined, time.clock).then(() => woke = true);
  await time.tick(9_999);
  assert.equal(woke, false);
  await time.tick(1);
  await sleeping;
  assert.equal(woke, true);
  assert.equal(time.pending(), 0);
});

Deno.test("sleep rejects with the signal's reason and clears its timer when aborted", async () => {
  const time = fakeClock();
  const stop = new AbortController();
  const sleeping = sleep(10_000, stop.signal, time.clock);
  assert.equal(time.pending(), 1);
  stop.abort(new Error("stopped"));
  await assert.rejects(sleeping, /stopped/);
  assert.equal(time.pending(), 0, "the timer was cleared");
  await assert.rejects(sleep(1, AbortSignal.abort(new Error("early")), time.clock), /early/);
  assert.equal(time.pending(), 0, "no timer for a signal aborted before the wait");
});

Deno.test("a clock without timers runs its timers on the global setTimeout", async () => {
  const global = FakeTimers.install({ toFake: ["setTimeout", "clearTimeout"] });
  try {
    const readOnly: Clock = { now: () => 0, monotonic: () => 0 };
    let fired = 0;
    startTimer(readOnly, 100, () => fired++);
    const cancel = startTimer(readOnly, 100, () => fired++);
    cancel();
    await global.tickAsync(100);
    assert.equal(fired, 1, "one fired, the cancelled one did not");
  } finally {
    global.uninstall();
  }
});

Deno.test("a fake clock moves wall and monotonic time together", async () => {
  const time = fakeClock(5_000);
  assert.equal(time.clock.now(), 5_000);
  await time.tick(250);
  assert.equal(time.clock.now(), 5_250);
  assert.equal(time.clock.monotonic(), 5_250);
});

Deno.test("startTimer lets the process exit while an unref'd timer waits, on the clock's own timers", () => {
  const time = fakeClock();
  const unrefd: unknown[] = [];
  const clock: Clock = { ...time.clock, unrefTimer: (handle) => unrefd.push(handle) };
  const keep = startTimer(clock, 100, () => {});
  assert.deepEqual(unrefd, [], "a timer keeps the process alive by default");
  const housekeeping = startTimer(clock, 100, () => {}, { unref: true });
  assert.equal(unrefd.length, 1);
  assert.equal(time.pending(), 2, "both run on the fake clock");
  keep();
  housekeeping();
  assert.equal(time.pending(), 0);
});

Deno.test("timeoutSignal aborts with a TimeoutError after its time on the clock, and not once cleared", async () => {
  const time = fakeClock();
  const late = timeoutSignal(1_000, time.clock);
  await time.tick(999);
  assert.equal(late.signal.aborted, false);
  await time.tick(1);
  assert.equal(late.signal.aborted, true);
  assert.equal((late.signal.reason as DOMException).name, "TimeoutError");
  const cleared = timeoutSignal(1_000, time.clock);
  cleared.clear();
  await time.tick(2_000);
  assert.equal(cleared.signal.aborted, false);
  assert.equal(time.pending(), 0);
});
