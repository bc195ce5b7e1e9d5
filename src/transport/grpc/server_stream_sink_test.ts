import assert from "node:assert/strict";
import { EventEmitter } from "node:events";
import { fakeClock } from "../../core/fake_clock.ts";
import { serverStreamSink } from "./server_stream_sink.ts";

/** A grpc-js server stream stand-in whose buffer holds `capacity` messages until drained. */
class FakeCall extends EventEmitter {
  readonly sent: string[] = [];
  buffered = 0;
  ended = false;
  constructor(readonly capacity: number) {
    super();
  }
  write(message: string): boolean {
    this.sent.push(message);
    return ++this.buffered < this.capacity;
  }
  end(): void {
    this.ended = true;
  }
  /** The socket took everything. */
  drain(): void {
    this.buffered = 0;
    this.emit("drain");
  }
}

/** A latest-value source like the watch fan-out: each pull yields the current version. */
function latest(state: { version: number; pulls: number }, last: number): ReadableStream<number> {
  return new ReadableStream<number>({
    pull(controller) {
      state.pulls++;
      controller.enqueue(state.version);
      if (state.version >= last) controller.close();
    },
  }, { highWaterMark: 0 });
}

Deno.test("server stream sink waits for drain and pulls nothing meanwhile; the source skips ahead", async () => {
  const time = fakeClock();
  const call = new FakeCall(2);
  const state = { version: 1, pulls: 0 };
  const signal = new AbortController().signal;
  let done = false;
  const piping = latest(state, 9)
    .pipeTo(serverStreamSink(call, { encode: (v: number) => `v${v}`, signal }))
    .then(() => done = true);
  await time.settle();
  assert.deepEqual(call.sent, ["v1", "v1"], "written until the call said its buffer is full");
  const pulls = state.pulls;
  state.version = 5; // versions 2..4 come and go while the spectator is slow
  await time.settle();
  assert.equal(
    state.pulls,
    pulls,
    "no pull while waiting for 'drain': backpressure reaches the source",
  );
  assert.equal(call.listenerCount("drain"), 1);
  state.version = 9;
  call.drain();
  await piping;
  assert.deepEqual(call.sent, ["v1", "v1", "v9"], "the next message is the latest version");
  assert.equal(call.ended, true, "the source's end ends the call");
  assert.ok(done);
});

Deno.test("server stream sink stops waiting for drain when the call is cancelled, and leaves it be", async () => {
  const time = fakeClock();
  const call = new FakeCall(1);
  const cancelled = new AbortController();
  const state = { version: 1, pulls: 0 };
  const piping = latest(state, Infinity).pipeTo(
    serverStreamSink(call, { encode: String, signal: cancelled.signal }),
    { signal: cancelled.signal },
  );
  await time.settle();
  assert.deepEqual(call.sent, ["1"]);
  cancelled.abort(new Error("cancelled"));
  await assert.rejects(piping, /cancelled/);
  assert.equal(call.listenerCount("drain"), 0, "the drain listener is removed");
  assert.equal(call.ended, false, "a cancelled call is not ended");
  assert.equal(call.sent.length, 1);
});

Deno.test("server stream sink: a failing source rejects the pipe and the call is not ended", async () => {
  const call = new FakeCall(10);
  const source = new ReadableStream<number>({
    start(controller) {
      controller.enqueue(1);
      controller.error(new Error("namespace gone"));
    },
  });
  const signal = new AbortController().signal;
  await assert.rejects(
    source.pipeTo(serverStreamSink(call, { encode: String, signal })),
    /namespace gone/,
  );
  assert.equal(call.ended, false, "the handler maps the error to a status instead");
});
