import assert from "node:assert/strict";
import { Buffer } from "node:buffer";
import { EventEmitter } from "node:events";
import { NamespaceNotFoundError } from "../../../core/errors.ts";
import type { Logger } from "../../../core/logger.ts";
import { HeartbeatLane, type HeartbeatLaneOptions, laneTakes, SWEEP_MS } from "./heartbeat_lane.ts";
import { frameMessage } from "./unary_frame_reader.ts";

const PATH = "/uber.cadence.sharddistributor.v1.ShardDistributorExecutorAPI/Heartbeat";
const HEADERS = { ":path": PATH, "content-type": "application/grpc", "grpc-timeout": "10S" };

/** A `node:http2` server stream that records what the lane sends. */
class FakeStream extends EventEmitter {
  destroyed = false;
  closed = false;
  headers: Record<string, unknown> | undefined;
  options: Record<string, unknown> | undefined;
  trailers: Record<string, unknown> | undefined;
  body: Buffer | undefined;
  responds = 0;

  respond(headers: Record<string, unknown>, options?: Record<string, unknown>): void {
    this.responds++;
    this.headers = headers;
    this.options = options;
  }
  sendTrailers(headers: Record<string, unknown>): void {
    this.trailers = headers;
  }
  end(chunk?: Uint8Array): void {
    this.body = chunk ? Buffer.from(chunk) : Buffer.alloc(0);
    if (this.options?.waitForTrailers) queueMicrotask(() => this.emit("wantTrailers"));
  }
  /** Sends `chunks` as the request's DATA and ends it. */
  request(...chunks: Uint8Array[]): void {
    for (const chunk of chunks) this.emit("data", Buffer.from(chunk));
    this.emit("end");
  }
}

function lane(overrides: Partial<HeartbeatLaneOptions> = {}) {
  const calls: string[] = [];
  const seen: unknown[] = [];
  const options: HeartbeatLaneOptions = {
    path: PATH,
    maxReceiveBytes: 1024,
    maxSendBytes: 1024,
    deserialize: (bytes) => ({ text: bytes.toString() }),
    answer: (request) => {
      seen.push(request);
      return Promise.resolve(Uint8Array.of(1, 2, 3));
    },
    context: {
      logger: {
        error: () => {},
        warn: () => {},
        info: () => {},
        debug: () => {},
      } as unknown as Logger,
      observer: { rpc: (method, status) => calls.push(`${method} ${status}`) },
    },
    ...overrides,
  };
  return { lane: new HeartbeatLane(options), calls, seen };
}

const settled = () => new Promise((resolve) => setTimeout(resolve, 5));

Deno.test("the lane answers a heartbeat with grpc-js's headers, framing and trailers", async () => {
  const { lane: l, calls, seen } = lane();
  const stream = new FakeStream();
  l.serve(stream as never, HEADERS);
  // The prefix split over chunks, as HTTP/2 may deliver it.
  const request = frameMessage(Buffer.from("hello"));
  stream.request(request.subarray(0, 2), request.subarray(2, 7), request.subarray(7));
  await settled();
  assert.deepEqual(seen, [{ text: "hello" }]);
  assert.deepEqual(stream.headers, {
    ":status": 200,
    "content-type": "application/grpc+proto",
    "grpc-accept-encoding": "identity,deflate,gzip",
    "grpc-encoding": "identity",
  });
  assert.deepEqual(stream.options, { waitForTrailers: true });
  assert.deepEqual([...stream.body!], [0, 0, 0, 0, 3, 1, 2, 3]);
  assert.deepEqual(stream.trailers, { "grpc-status": "0", "grpc-message": "OK" });
  assert.deepEqual(calls, ["Heartbeat OK"]);
});

Deno.test("the lane refuses what grpc-js refuses, with its codes and messages", async () => {
  const cases: [string, Uint8Array[], number, string][] = [
    ["no message", [], 12, `Received no request message for server streaming method ${PATH}`],
    [
      "two messages",
      [frameMessage(Uint8Array.of(1)), frameMessage(Uint8Array.of(2))],
      12,
      `Received a second request message for server streaming method ${PATH}`,
    ],
    [
      "a message over the limit",
      [frameMessage(new Uint8Array(2000)).subarray(0, 100)],
      8,
      "Received message larger than max (2000 vs 1024)",
    ],
  ];
  for (const [what, chunks, code, message] of cases) {
    const { lane: l, seen } = lane();
    const stream = new FakeStream();
    l.serve(stream as never, HEADERS);
    stream.request(...chunks);
    await settled();
    assert.equal(stream.headers?.["grpc-status"], String(code), what);
    assert.equal(stream.headers?.["grpc-message"], encodeURI(message), what);
    assert.deepEqual(stream.options, { endStream: true }, what);
    assert.equal(stream.responds, 1, what);
    assert.deepEqual(seen, [], what);
  }
});

Deno.test("the lane answers a handler's error as trailers only, typed detail included", async () => {
  const { lane: l, calls } = lane({
    answer: () => Promise.reject(new NamespaceNotFoundError("nope nope")),
  });
  const stream = new FakeStream();
  l.serve(stream as never, HEADERS);
  stream.request(frameMessage(Uint8Array.of(1)));
  await settled();
  assert.equal(stream.headers?.["grpc-status"], "5");
  assert.equal(stream.headers?.["grpc-message"], encodeURI('Namespace "nope nope" not found'));
  assert.equal(stream.headers?.[":status"], 200);
  assert.equal(stream.headers?.["content-type"], "application/grpc+proto");
  assert.equal(typeof stream.headers?.["grpc-status-details-bin"], "string");
  assert.deepEqual(calls, ["Heartbeat NOT_FOUND"]);
});

Deno.test("the lane ends a call at its deadline, and only once", async () => {
  let release: (bytes: Uint8Array) => void = () => {};
  const { lane: l } = lane({ answer: () => new Promise((resolve) => release = resolve) });
  const stream = new FakeStream();
  l.serve(stream as never, { ...HEADERS, "grpc-timeout": "30m" });
  stream.request(frameMessage(Uint8Array.of(1)));
  await new Promise((resolve) => setTimeout(resolve, 30 + 3 * SWEEP_MS));
  assert.equal(stream.headers?.["grpc-status"], "4");
  assert.equal(stream.headers?.["grpc-message"], "Deadline%20exceeded");
  release(Uint8Array.of(9));
  await settled();
  assert.equal(stream.responds, 1);
  assert.equal(stream.body, undefined);
});

Deno.test("an answer over the send limit is RESOURCE_EXHAUSTED, as in grpc-js", async () => {
  const { lane: l } = lane({ answer: () => Promise.resolve(new Uint8Array(2000)) });
  const stream = new FakeStream();
  l.serve(stream as never, HEADERS);
  stream.request(frameMessage(Uint8Array.of(1)));
  await settled();
  assert.equal(stream.headers?.["grpc-status"], "8");
  assert.equal(
    stream.headers?.["grpc-message"],
    encodeURI("Sent message larger than max (2005 vs. 1024)"),
  );
});

Deno.test("a call whose client went away is not answered", async () => {
  const { lane: l, seen } = lane();
  const gone = new FakeStream();
  gone.closed = true;
  l.serve(gone as never, HEADERS);
  gone.request(frameMessage(Uint8Array.of(1)));
  const leaving = new FakeStream();
  l.serve(leaving as never, HEADERS);
  leaving.request(frameMessage(Uint8Array.of(1)));
  leaving.destroyed = true; // before the answer is ready
  await settled();
  assert.equal(gone.responds + leaving.responds, 0);
  assert.equal(seen.length, 1); // the heartbeat itself was taken
});

Deno.test("the lane takes only what it serves as grpc-js would; the rest goes to grpc-js", () => {
  const ok = { ":path": PATH, "content-type": "application/grpc+proto" };
  assert.equal(laneTakes(ok, PATH), true);
  assert.equal(
    laneTakes({ ...ok, "grpc-encoding": "identity", "grpc-timeout": "99m" }, PATH),
    true,
  );
  assert.equal(laneTakes({ ...ok, "grpc-encoding": "gzip" }, PATH), false);
  assert.equal(laneTakes({ ...ok, "grpc-timeout": "later" }, PATH), false);
  assert.equal(laneTakes({ ...ok, "content-type": "application/json" }, PATH), false);
  assert.equal(laneTakes({ ...ok, "content-type": undefined }, PATH), false);
  assert.equal(laneTakes({ ...ok, ":path": PATH + "x" }, PATH), false);
});
