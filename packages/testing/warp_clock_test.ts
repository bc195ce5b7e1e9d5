import assert from "node:assert/strict";
import { WarpClock } from "./warp_clock.ts";

Deno.test("advance fires the timers that fall due in order, and timers they set within the advance", async () => {
  const clock = new WarpClock();
  const fired: string[] = [];
  clock.setTimeout(() => fired.push("b"), 2_000);
  clock.setTimeout(() => {
    fired.push("a");
    clock.setTimeout(() => fired.push("a+500"), 500);
  }, 1_000);
  clock.setTimeout(() => fired.push("late"), 10_000);
  await clock.advance(2_000);
  assert.deepEqual(fired, ["a", "a+500", "b"]);
  assert.equal(clock.pending(), 1);
});

Deno.test("a timer not yet due after an advance fires after what is left of its wait", async () => {
  const clock = new WarpClock();
  let fired = false;
  clock.setTimeout(() => fired = true, 1_000);
  await clock.advance(950);
  assert.equal(fired, false);
  await new Promise((resolve) => setTimeout(resolve, 200)); // real time: 50 ms were left
  assert.equal(fired, true);
});

Deno.test("cleared timers never fire; now() and monotonic() move with the advance", async () => {
  const clock = new WarpClock();
  const [wall, mono] = [clock.now(), clock.monotonic()];
  const handle = clock.setTimeout(() => assert.fail("cleared"), 100);
  clock.clearTimeout(handle);
  await clock.advance(300);
  assert.ok(clock.now() - wall >= 300);
  assert.ok(clock.monotonic() - mono >= 300);
  assert.equal(clock.offsetMs, 300);
  await assert.rejects(clock.advance(-1), RangeError);
});
