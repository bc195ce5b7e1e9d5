import assert from "node:assert/strict";
import { fakeClock } from "../../core/fake_clock.ts";
import { WakeTimer } from "./wake_timer.ts";

Deno.test("wake timer fires on its clock's time, once per setting, the last setting winning", async () => {
  const time = fakeClock(1_000);
  const stop = new AbortController();
  const wake = new WakeTimer(stop.signal, time.clock);
  const reader = wake.readable.getReader();
  wake.at(1_500);
  wake.at(2_000); // replaces the first setting
  assert.equal(time.pending(), 1);
  const fired = reader.read();
  await time.tick(999);
  assert.equal(time.pending(), 1, "not due before 2,000 ms (+1)");
  await time.tick(2);
  assert.deepEqual(await fired, { done: false, value: 2_000 });
  assert.equal(time.pending(), 0);
  stop.abort();
  assert.equal((await reader.read()).done, true);
});

Deno.test("wake timer clears its timer when cleared or when its signal aborts", () => {
  const time = fakeClock();
  const stop = new AbortController();
  const wake = new WakeTimer(stop.signal, time.clock);
  wake.at(100);
  wake.at(undefined);
  assert.equal(time.pending(), 0, "undefined clears the setting");
  wake.at(100);
  stop.abort();
  assert.equal(time.pending(), 0, "the abort cleared the timer");
});
