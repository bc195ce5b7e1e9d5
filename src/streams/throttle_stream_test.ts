import assert from "node:assert/strict";
import FakeTimers from "@sinonjs/fake-timers";
import { fakeClock } from "../core/fake_clock.ts";
import { ThrottleStream } from "./throttle_stream.ts";

/** A throttle on fake time, with a writer, and every output recorded with its time. */
function setup(cooldownMs: number | (() => number)) {
  const clock = FakeTimers.install({ toFake: ["setTimeout", "clearTimeout"] });
  const throttle = new ThrottleStream<number>({ cooldownMs, now: () => clock.now });
  const writer = throttle.writable.getWriter();
  const out: { value: number; at: number }[] = [];
  const reading = throttle.readable.pipeTo(
    new WritableStream({ write: (value) => void out.push({ value, at: clock.now }) }),
  );
  return { clock, writer, out, reading };
}

Deno.test("throttle passes the first trigger of a burst at once", async () => {
  const { clock, writer, out } = setup(100);
  try {
    await writer.write(1);
    await clock.tickAsync(0);
    assert.deepEqual(out, [{ value: 1, at: 0 }]);
  } finally {
    clock.uninstall();
  }
});

Deno.test("throttle turns a burst within the cooldown into one more chunk, the latest, at its end", async () => {
  const { clock, writer, out } = setup(100);
  try {
    await writer.write(1);
    for (const value of [2, 3, 4]) {
      await clock.tickAsync(10);
      await writer.write(value);
    }
    await clock.tickAsync(69);
    assert.deepEqual(out.map((o) => o.value), [1], "nothing before the cooldown ends");
    await clock.tickAsync(1);
    assert.deepEqual(out, [{ value: 1, at: 0 }, { value: 4, at: 100 }]);
    await clock.tickAsync(1_000);
    assert.equal(out.length, 2, "the burst cost exactly one more chunk");
  } finally {
    clock.uninstall();
  }
});

Deno.test("throttle passes chunks further apart than the cooldown at once", async () => {
  const { clock, writer, out } = setup(100);
  try {
    for (const value of [1, 2, 3]) {
      await writer.write(value);
      await clock.tickAsync(150);
    }
    assert.deepEqual(out, [{ value: 1, at: 0 }, { value: 2, at: 150 }, { value: 3, at: 300 }]);
  } finally {
    clock.uninstall();
  }
});

Deno.test("throttle lets at most one chunk wait while the reader is busy", async () => {
  const clock = FakeTimers.install({ toFake: ["setTimeout", "clearTimeout"] });
  try {
    let feed!: ReadableStreamDefaultController<number>;
    const source = new ReadableStream<number>({ start: (c) => void (feed = c) });
    const passes: { value: number; at: number }[] = [];
    const done = source
      .pipeThrough(new ThrottleStream({ cooldownMs: 100, now: () => clock.now }))
      .pipeTo(
        new WritableStream({
          async write(value) {
            passes.push({ value, at: clock.now });
            // The first pass is slow: it takes 1 s.
            if (passes.length === 1) await new Promise((r) => setTimeout(r, 1_000));
          },
        }),
      );
    feed.enqueue(1);
    for (const value of [2, 3, 4, 5, 6, 7, 8, 9]) {
      await clock.tickAsync(100);
      feed.enqueue(value);
    }
    await clock.tickAsync(5_000);
    // Everything that arrived during the slow pass costs one more pass, not a backlog.
    assert.equal(passes.length, 2, JSON.stringify(passes));
    assert.deepEqual(passes[0], { value: 1, at: 0 });
    assert.equal(passes[1]?.at, 1_000);
    feed.enqueue(10);
    await clock.tickAsync(0);
    assert.deepEqual(passes[2], { value: 10, at: 5_800 }, "a later trigger still gets a pass");
    feed.close();
    await done;
  } finally {
    clock.uninstall();
  }
});

Deno.test("throttle rejects a negative cooldown", () => {
  assert.throws(() => new ThrottleStream({ cooldownMs: -1 }), /Cooldown must be >= 0, got -1/);
  assert.throws(() => new ThrottleStream({ cooldownMs: NaN }), RangeError);
});

Deno.test("throttle asks a cooldown function at each chunk: a longer cooldown holds the next chunk longer", async () => {
  let cooldown = 100;
  const { clock, writer, out } = setup(() => cooldown);
  try {
    await writer.write(1);
    await clock.tickAsync(0);
    cooldown = 400;
    await writer.write(2);
    await clock.tickAsync(150);
    assert.deepEqual(out.map((o) => o.value), [1], "still cooling down after 150 ms");
    await clock.tickAsync(300);
    assert.deepEqual(out, [{ value: 1, at: 0 }, { value: 2, at: 400 }]);
  } finally {
    clock.uninstall();
  }
});

Deno.test("throttle runs its cooldown on the clock it is given", async () => {
  const time = fakeClock();
  const throttle = new ThrottleStream<number>({ cooldownMs: 100, clock: time.clock });
  const writer = throttle.writable.getWriter();
  const out: { value: number; at: number }[] = [];
  const reading = throttle.readable.pipeTo(
    new WritableStream({ write: (value) => void out.push({ value, at: time.clock.now() }) }),
  );
  await writer.write(1);
  await time.tick(10);
  await writer.write(2);
  assert.equal(time.pending(), 1, "the held chunk waits on the fake clock");
  await time.tick(90);
  assert.deepEqual(out, [{ value: 1, at: 0 }, { value: 2, at: 100 }]);
  await writer.close();
  await reading;
});
