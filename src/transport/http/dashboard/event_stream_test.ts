import assert from "node:assert/strict";
import { sseEvent, stateEvents } from "./event_stream.ts";

/** A change stream we drive by hand, recording the signal it was opened with. */
function changeSource() {
  let controller!: ReadableStreamDefaultController<number>;
  let openedWith: AbortSignal | undefined;
  let cancelled = false;
  const stream = new ReadableStream<number>({
    start: (c) => void (controller = c),
    cancel: () => void (cancelled = true),
  });
  return {
    open: (signal: AbortSignal) => {
      openedWith = signal;
      return stream;
    },
    push: (n: number) => controller.enqueue(n),
    close: () => controller.close(),
    get signal() {
      return openedWith;
    },
    get cancelled() {
      return cancelled;
    },
  };
}

function frames(stream: ReadableStream<Uint8Array>) {
  const reader = stream.pipeThrough(new TextDecoderStream()).getReader();
  return {
    next: async () => (await reader.read()).value,
    cancel: () => reader.cancel(),
  };
}

Deno.test("an SSE event is one event line and one data line of JSON", () => {
  assert.equal(sseEvent("state", { a: "x\ny" }), 'event: state\ndata: {"a":"x\\ny"}\n\n');
  assert.throws(() => sseEvent("bad name\n", 1), TypeError);
});

Deno.test("state events follow each change, then refresh without one", async () => {
  const source = changeSource();
  const stop = new AbortController();
  let snapshots = 0;
  const out = frames(stateEvents(source.open, (v) => ({ v, n: ++snapshots }), {
    refreshMs: 50,
    minIntervalMs: 0,
    signal: stop.signal,
  }));
  try {
    assert.equal(await out.next(), "retry: 2000\n\n");
    source.push(1);
    assert.equal(await out.next(), 'event: state\ndata: {"v":1,"n":1}\n\n');
    source.push(2);
    assert.equal(await out.next(), 'event: state\ndata: {"v":2,"n":2}\n\n');
    const started = performance.now();
    assert.equal(await out.next(), 'event: state\ndata: {"v":2,"n":3}\n\n', "a refresh");
    assert.ok(performance.now() - started >= 40);
  } finally {
    stop.abort();
  }
});

Deno.test("state events end when the signal aborts, and abort the change stream", async () => {
  const source = changeSource();
  const stop = new AbortController();
  const out = frames(
    stateEvents(source.open, (v) => v, { refreshMs: 10_000, signal: stop.signal }),
  );
  await out.next();
  source.push(1);
  await out.next();
  const ending = out.next();
  stop.abort();
  assert.equal(await ending, undefined);
  assert.equal(source.signal?.aborted, true);
  assert.equal(source.cancelled, true);
});

Deno.test("state events end before the first picture when the signal aborts", async () => {
  const source = changeSource();
  const stop = new AbortController();
  const out = frames(stateEvents(source.open, (v) => v, { signal: stop.signal }));
  await out.next();
  const ending = out.next();
  stop.abort();
  assert.equal(await ending, undefined);
  assert.equal(source.signal?.aborted, true);
});

Deno.test("cancelling the event stream (a closed tab) aborts the change stream", async () => {
  const source = changeSource();
  const out = frames(stateEvents(source.open, (v) => v, { signal: new AbortController().signal }));
  await out.next();
  source.push(1);
  await out.next();
  await out.cancel();
  assert.equal(source.signal?.aborted, true);
  assert.equal(source.cancelled, true);
});

Deno.test("state events close when the change stream closes (the service stops)", async () => {
  const source = changeSource();
  const out = frames(stateEvents(source.open, (v) => v, { signal: new AbortController().signal }));
  await out.next();
  source.push(1);
  await out.next();
  source.close();
  assert.equal(await out.next(), undefined);
});

Deno.test("a failing snapshot errors the stream and aborts the change stream", async () => {
  const source = changeSource();
  const stream = stateEvents(source.open, () => {
    throw new Error("boom");
  }, { signal: new AbortController().signal });
  const reader = stream.getReader();
  await reader.read();
  source.push(1);
  await assert.rejects(reader.read(), /boom/);
  assert.equal(source.signal?.aborted, true);
});

Deno.test("state events wait minIntervalMs between events", async () => {
  const source = changeSource();
  const stop = new AbortController();
  const out = frames(stateEvents(source.open, (v) => v, {
    minIntervalMs: 60,
    signal: stop.signal,
  }));
  try {
    await out.next();
    source.push(1);
    await out.next();
    const started = performance.now();
    source.push(2);
    assert.equal(await out.next(), "event: state\ndata: 2\n\n");
    assert.ok(performance.now() - started >= 50);
  } finally {
    stop.abort();
  }
});

Deno.test("state events reject bad timings", () => {
  const open = () => new ReadableStream<number>();
  const signal = new AbortController().signal;
  assert.throws(() => stateEvents(open, (v) => v, { refreshMs: -1, signal }), RangeError);
  assert.throws(
    () => stateEvents(open, (v) => v, { retryMs: Infinity, signal }),
    /retryMs must be a non-negative number, got Infinity/,
  );
});
