import assert from "node:assert/strict";
import { EventEmitter } from "node:events";
import { installClosedStreamGuard } from "./closed_stream_guard.ts";

class FakeStream {
  answered = 0;
  constructor(readonly destroyed: boolean, readonly closed: boolean) {}
  respond = () => {
    if (this.destroyed || this.closed) throw new Error("The stream has been destroyed");
    this.answered++;
  };
}

Deno.test("the guard runs before the server's own listener and mutes only gone streams", () => {
  const http2 = new EventEmitter();
  // grpc-js's listener, registered first; it answers at once.
  http2.on("stream", (stream: FakeStream) => stream.respond());
  let guarded = 0;
  assert.equal(
    installClosedStreamGuard({ http2Servers: new Map([[http2, {}]]) }, () => guarded++),
    1,
  );
  const live = new FakeStream(false, false);
  http2.emit("stream", live);
  assert.equal(live.answered, 1);
  http2.emit("stream", new FakeStream(true, false));
  http2.emit("stream", new FakeStream(false, true));
  assert.equal(guarded, 2);
});

Deno.test("a server without the http2Servers map is refused, not silently unguarded", () => {
  assert.throws(() => installClosedStreamGuard({}, () => {}), TypeError);
});
