import assert from "node:assert/strict";
import { ResourceExhaustedError } from "../core/errors.ts";
import { AssignmentHints } from "./assignment_hints.ts";

Deno.test("a hint stream's first hint is the current revision, at once", async () => {
  const hints = new AssignmentHints("ns", () => 42);
  const stop = new AbortController();
  const reader = hints.subscribe("e1", stop.signal).getReader();
  assert.deepEqual(await reader.read(), { value: { revision: 42 }, done: false });
  stop.abort();
  assert.equal((await reader.read()).done, true);
});

Deno.test("only the executors a change names are hinted", async () => {
  const hints = new AssignmentHints("ns", () => 1);
  const stop = new AbortController();
  const a = hints.subscribe("a", stop.signal).getReader();
  const b = hints.subscribe("b", stop.signal).getReader();
  await a.read();
  await b.read();
  hints.notify(new Set(["a", "x", "y"]), 5);
  assert.deepEqual((await a.read()).value, { revision: 5 });
  let bHinted = false;
  const next = b.read().then((r) => (bHinted = true, r));
  await new Promise((resolve) => setTimeout(resolve, 10));
  assert.equal(bHinted, false, "b's assignment did not change");
  hints.notify(new Set(["b"]), 6);
  assert.deepEqual((await next).value, { revision: 6 });
  stop.abort();
});

Deno.test("hints to a slow reader are coalesced to the newest revision", async () => {
  const hints = new AssignmentHints("ns", () => 1);
  const stop = new AbortController();
  const reader = hints.subscribe("e1", stop.signal).getReader();
  await reader.read();
  for (let revision = 2; revision <= 50; revision++) hints.notify(new Set(["e1"]), revision);
  assert.deepEqual((await reader.read()).value, { revision: 50 });
  let more = false;
  void reader.read().then(() => more = true);
  await new Promise((resolve) => setTimeout(resolve, 10));
  assert.equal(more, false, "one hint for 49 changes");
  stop.abort();
});

Deno.test("notify('all') hints every stream (the picture was reloaded)", async () => {
  const hints = new AssignmentHints("ns", () => 1);
  const stop = new AbortController();
  const readers = ["a", "b", "c"].map((id) => hints.subscribe(id, stop.signal).getReader());
  for (const r of readers) await r.read();
  hints.notify("all", 9);
  for (const r of readers) assert.deepEqual((await r.read()).value, { revision: 9 });
  stop.abort();
});

Deno.test("streams per executor are bounded, and a closed stream frees its place", async () => {
  const hints = new AssignmentHints("ns", () => 1, { maxPerExecutor: 2 });
  const first = new AbortController();
  const second = new AbortController();
  hints.subscribe("e1", first.signal);
  const cancelled = hints.subscribe("e1", second.signal);
  assert.throws(
    () => hints.subscribe("e1", new AbortController().signal),
    (error: unknown) =>
      error instanceof ResourceExhaustedError &&
      /"e1" already has 2 open \(at most 2\)/.test(error.message),
  );
  hints.subscribe("e2", new AbortController().signal); // other executors are not limited by e1's
  assert.equal(hints.subscribers, 3);
  first.abort();
  await cancelled.cancel(); // a reader that cancels frees its place too
  assert.equal(hints.subscribers, 1);
  hints.subscribe("e1", new AbortController().signal);
  assert.throws(() => new AssignmentHints("ns", () => 1, { maxPerExecutor: 0 }), RangeError);
});

Deno.test("a stream cancelled while it waits for a hint ends cleanly", async () => {
  const hints = new AssignmentHints("ns", () => 1);
  const stream = hints.subscribe("e1", new AbortController().signal);
  const reader = stream.getReader();
  await reader.read();
  const pending = reader.read(); // waits: no hint
  await reader.cancel();
  assert.equal((await pending).done, true);
  assert.equal(hints.subscribers, 0);
  hints.notify(new Set(["e1"]), 3); // nobody left: nothing happens
});
