import assert from "node:assert/strict";
import { untilAborted } from "./until_aborted.ts";

Deno.test("untilAborted settles like the work while the signal holds", async () => {
  const stop = new AbortController();
  assert.equal(await untilAborted(Promise.resolve(3), stop.signal), 3);
  await assert.rejects(untilAborted(Promise.reject(new Error("no")), stop.signal), /no/);
});

Deno.test("untilAborted stops waiting when the signal aborts, before or during the work", async () => {
  const stop = new AbortController();
  const waiting = untilAborted(new Promise<number>(() => {}), stop.signal);
  stop.abort(new Error("gave up"));
  await assert.rejects(waiting, /gave up/);
  await assert.rejects(untilAborted(Promise.resolve(1), stop.signal), /gave up/);
});
