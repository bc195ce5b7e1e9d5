import assert from "node:assert/strict";
import { EventHub } from "./event_hub.ts";

type Ev = { type: "n"; n: number } | { type: "dropped"; count: number };
const hub = () => new EventHub<Ev>(3, (count) => ({ type: "dropped", count }));

Deno.test("a slow consumer loses its oldest events, is told how many, and memory stays bounded", async () => {
  const events = hub();
  const slow = events.subscribe();
  const fast = events.subscribe();
  const seenFast: Ev[] = [];
  const reading = (async () => {
    for await (const e of fast) seenFast.push(e);
  })();
  for (let n = 0; n < 1_000; n++) {
    events.emit({ type: "n", n });
    await Promise.resolve();
  }
  events.close();
  const seenSlow: Ev[] = [];
  for await (const e of slow) seenSlow.push(e);
  await reading;
  assert.deepEqual(seenSlow, [
    { type: "dropped", count: 997 },
    { type: "n", n: 997 },
    { type: "n", n: 998 },
    { type: "n", n: 999 },
  ]);
  assert.equal(seenFast.length, 1_000, "a consumer that keeps up loses nothing");
});

Deno.test("iterators see only later events and end on abort, break or close", async () => {
  const events = hub();
  events.emit({ type: "n", n: 0 });
  const controller = new AbortController();
  const aborted = events.subscribe({ signal: controller.signal });
  const broken = events.subscribe();
  events.emit({ type: "n", n: 1 });
  for await (const e of broken) {
    assert.deepEqual(e, { type: "n", n: 1 });
    break;
  }
  const pending = aborted.next();
  assert.deepEqual(await pending, { value: { type: "n", n: 1 }, done: false });
  const waiting = aborted.next();
  controller.abort();
  assert.deepEqual(await waiting, { value: undefined, done: true });
  events.close();
  events.emit({ type: "n", n: 2 });
  assert.deepEqual(await events.subscribe().next(), { value: undefined, done: true });
});
