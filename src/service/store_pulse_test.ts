import assert from "node:assert/strict";
import { StoreEvidence } from "../core/store_evidence.ts";
import { fakeClock } from "../core/fake_clock.ts";
import { runStorePulse } from "./store_pulse.ts";

Deno.test("the store pulse reads when nothing was heard and counts only answers", async () => {
  const time = fakeClock(0);
  const evidence = new StoreEvidence({ silenceMs: 1_000, clock: time.clock });
  const stop = new AbortController();
  let pings = 0;
  let stalled: PromiseWithResolvers<void> | undefined;
  const store = {
    ping: () => {
      pings++;
      if (stalled) return stalled.promise;
      return Promise.resolve();
    },
  };
  const pulse = runStorePulse(store, evidence, stop.signal, { intervalMs: 250, clock: time.clock });
  await time.settle();
  assert.equal(pings, 1);
  assert.equal(evidence.last?.now, 0);
  await time.tick(250);
  assert.equal(pings, 2);

  // The store stalls: one read hangs, nothing else is sent, and the store turns silent.
  stalled = Promise.withResolvers<void>();
  await time.tick(250);
  assert.equal(pings, 3);
  await time.tick(2_000);
  assert.equal(pings, 3, "one read at a time");
  assert.equal(evidence.silentAt(time.clock.monotonic()), true);
  const resumed: number[] = [];
  evidence.onResume((since) => resumed.push(since));
  stalled.resolve();
  stalled = undefined;
  await time.settle();
  assert.deepEqual(resumed, [250], "the answer ends the silence that began after the last one");
  assert.equal(evidence.silentAt(time.clock.monotonic()), false);

  stop.abort();
  await time.tick(250);
  await pulse;
});

Deno.test("a failed read is no evidence", async () => {
  const time = fakeClock(0);
  const evidence = new StoreEvidence({ silenceMs: 1_000, clock: time.clock });
  const stop = new AbortController();
  const pulse = runStorePulse(
    { ping: () => Promise.reject(new Error("down")) },
    evidence,
    stop.signal,
    {
      intervalMs: 250,
      clock: time.clock,
    },
  );
  await time.tick(1_000);
  assert.equal(evidence.last, undefined);
  stop.abort();
  await time.tick(250);
  await pulse;
});

Deno.test("the pulse refuses an interval that is not a positive duration", async () => {
  const evidence = new StoreEvidence({ silenceMs: 1_000 });
  await assert.rejects(
    runStorePulse({ ping: () => Promise.resolve() }, evidence, AbortSignal.abort(), {
      intervalMs: 0,
    }),
    RangeError,
  );
});
