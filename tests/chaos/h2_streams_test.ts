import assert from "node:assert/strict";
import { H2Streams } from "./h2_streams.ts";

function frame(type: number, flags: number, stream: number, payload = 0): Uint8Array {
  const out = new Uint8Array(9 + payload);
  out.set([(payload >> 16) & 0xff, (payload >> 8) & 0xff, payload & 0xff, type, flags], 0);
  new DataView(out.buffer).setUint32(5, stream);
  return out;
}
const join = (...parts: Uint8Array[]) => {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let i = 0;
  for (const p of parts) (out.set(p, i), i += p.length);
  return out;
};
const PREFACE = new TextEncoder().encode("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n");

Deno.test("calls are counted across frames split anywhere between chunks", () => {
  const client = join(
    PREFACE,
    frame(4, 0, 0, 6), // SETTINGS with a payload
    frame(1, 4, 1, 30), // HEADERS, stream 1
    frame(0, 1, 1, 100), // DATA with END_STREAM (the request is sent, the call is not over)
    frame(1, 4, 3, 20), // HEADERS, stream 3
    frame(8, 0, 0, 4), // WINDOW_UPDATE
  );
  for (const size of [1, 5, 9, 17, 1_000]) {
    const calls = new H2Streams();
    for (let i = 0; i < client.length; i += size) calls.fromClient(client.subarray(i, i + size));
    assert.deepEqual([calls.started, calls.inFlight], [2, 2], `chunks of ${size}`);
    const server = join(frame(1, 4, 1, 10), frame(0, 0, 1, 50), frame(1, 5, 1, 10));
    for (let i = 0; i < server.length; i += size) calls.fromServer(server.subarray(i, i + size));
    assert.deepEqual([calls.started, calls.inFlight], [2, 1], `chunks of ${size}`);
  }
});

Deno.test("a reset from either side ends a call; trailers on an old stream start none", () => {
  const calls = new H2Streams();
  calls.fromClient(join(PREFACE, frame(1, 4, 1), frame(1, 4, 3), frame(1, 4, 5)));
  calls.fromClient(frame(3, 0, 1, 4).subarray(0, 9)); // RST_STREAM header only
  calls.fromClient(new Uint8Array(4)); // its payload
  calls.fromServer(frame(3, 0, 3, 4));
  assert.deepEqual([calls.started, calls.inFlight], [3, 1]);
  calls.fromClient(frame(1, 5, 1)); // HEADERS on a stream already used: not a new call
  assert.equal(calls.started, 3);
  calls.close();
  assert.equal(calls.inFlight, 0);
});
