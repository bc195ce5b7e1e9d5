import assert from "node:assert/strict";
import { Buffer } from "node:buffer";
import { EventEmitter } from "node:events";
import * as grpc from "@grpc/grpc-js";
import { installReadModerator, ReadModerator } from "./read_moderator.ts";
import { http2ServersOf, sessionField } from "./_http2_servers.ts";
import { bytesMethod } from "../../../tests/support/grpc_clients.ts";

/** A socket whose native handle counts its stops and starts. */
class FakeSocket extends EventEmitter {
  destroyed = false;
  readonly _handle = {
    stops: 0,
    starts: 0,
    readStop: () => this._handle.stops++,
    readStart: () => this._handle.starts++,
  };
}

const tick = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

Deno.test("ReadModerator: a connection reading less often than once per window is never paused", () => {
  let now = 0;
  const moderator = new ReadModerator(10, () => now);
  const socket = new FakeSocket();
  assert.equal(moderator.watch(socket), true);
  for (let i = 0; i < 5; i++) {
    socket.emit("data");
    now += 10;
  }
  assert.equal(socket._handle.stops, 0);
  assert.equal(moderator.pauses, 0);
  moderator.close();
});

Deno.test("ReadModerator: a busy connection stops reading until the window's tick, then reads again", async () => {
  let now = 0;
  const moderator = new ReadModerator(15, () => now);
  const socket = new FakeSocket();
  moderator.watch(socket);
  socket.emit("data");
  now += 3;
  socket.emit("data"); // 3 ms after the previous read: paused
  assert.equal(socket._handle.stops, 1);
  assert.equal(moderator.paused, 1);
  socket.emit("data"); // bytes of the read in progress: no second stop
  assert.equal(socket._handle.stops, 1);
  await tick(40);
  assert.equal(socket._handle.starts, 1);
  assert.equal(moderator.paused, 0);
  assert.equal(moderator.pauses, 1);
  moderator.close();
});

Deno.test("ReadModerator: paused connections resume together; a destroyed one is not started", async () => {
  const now = 0;
  const moderator = new ReadModerator(15, () => now);
  const sockets = [new FakeSocket(), new FakeSocket(), new FakeSocket()];
  for (const socket of sockets) {
    moderator.watch(socket);
    socket.emit("data");
    socket.emit("data");
  }
  assert.equal(moderator.paused, 3);
  sockets[2]!.destroyed = true;
  await tick(40);
  assert.deepEqual(sockets.map((s) => s._handle.starts), [1, 1, 0]);
  moderator.close();
});

Deno.test("ReadModerator: a closed socket is forgotten; close() resumes all and pauses no more", () => {
  const moderator = new ReadModerator(1_000);
  const [a, b] = [new FakeSocket(), new FakeSocket()];
  moderator.watch(a);
  moderator.watch(b);
  for (const s of [a, b]) s.emit("data"), s.emit("data");
  a.emit("close");
  assert.equal(moderator.paused, 1);
  moderator.close(); // also clears the pending tick: no timer is left behind
  assert.equal(b._handle.starts, 1);
  assert.equal(a._handle.starts, 0);
  b.emit("data");
  b.emit("data");
  assert.equal(b._handle.stops, 1);
});

Deno.test("ReadModerator: refuses what it cannot moderate and windows that are not positive", () => {
  const moderator = new ReadModerator(10);
  assert.equal(moderator.watch(undefined), false);
  assert.equal(moderator.watch(new EventEmitter()), false); // no native handle
  moderator.close();
  for (const bad of [0, -1, NaN, Infinity]) assert.throws(() => new ReadModerator(bad), RangeError);
});

const echo = bytesMethod("/moderator.Test/Echo");

Deno.test("installReadModerator: spread-out calls on one busy connection are all answered, read in fewer batches", async () => {
  const server = new grpc.Server();
  server.addService({ Echo: echo }, {
    Echo: (call: grpc.ServerUnaryCall<Buffer, Buffer>, done: grpc.sendUnaryData<Buffer>) =>
      done(null, Buffer.from(call.request).reverse()),
  });
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync(
      "127.0.0.1:0",
      grpc.ServerCredentials.createInsecure(),
      (e, p) => e ? reject(e) : resolve(p),
    )
  );
  const moderator = new ReadModerator(50);
  let missing = 0;
  assert.equal(installReadModerator(server, moderator, () => missing++), 1);
  let reads = 0;
  for (const http2 of http2ServersOf(server, "the test")) {
    http2.on("session", (session: object) => {
      (sessionField(session, "socket") as EventEmitter).on("data", () => reads++);
    });
  }
  const Client = grpc.makeGenericClientConstructor({ Echo: echo }, "Test");
  const client = new Client(`127.0.0.1:${port}`, grpc.credentials.createInsecure()) as unknown as {
    Echo(request: Buffer, done: (e: Error | null, b: Buffer) => void): void;
    close(): void;
  };
  try {
    const calls: Promise<void>[] = [];
    const CALLS = 200;
    for (let i = 0; i < CALLS; i++) {
      const request = Buffer.from(`call ${i} of ${CALLS}`);
      calls.push(
        new Promise<void>((resolve, reject) =>
          client.Echo(request, (error, answer) => {
            if (error) return reject(error);
            assert.deepEqual(answer, Buffer.from(request).reverse());
            resolve();
          })
        ),
      );
      await tick(1); // spread out: one call per millisecond or so
    }
    await Promise.all(calls);
    assert.equal(missing, 0, "this runtime's sockets have a native handle to pause");
    assert.ok(moderator.pauses > 0, "the busy connection was paused");
    // Unmoderated, nearly every call is a read of its own (186 of 200 when this was written).
    assert.ok(reads < CALLS / 2, `${CALLS} calls were read in ${reads} reads`);
  } finally {
    client.close();
    moderator.close();
    await new Promise<void>((resolve) => server.tryShutdown(() => resolve()));
  }
});
