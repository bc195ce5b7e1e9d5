import assert from "node:assert/strict";
import { EventEmitter } from "node:events";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import * as grpc from "@grpc/grpc-js";
import { checkRuntimeInternals, interceptGrpcStreams, probeSession } from "./_runtime_internals.ts";

/** A stand-in for a bound grpc-js server with `listeners` stream listeners on each HTTP/2 server. */
function fakeServer(...listeners: number[]): object {
  const servers = listeners.map((count) => {
    const http2 = new EventEmitter();
    for (let i = 0; i < count; i++) http2.on("stream", () => {});
    return [http2, {}] as const;
  });
  return { http2Servers: new Map(servers) };
}

const full = () => Promise.resolve({ writes: true, reads: true });

Deno.test("a grpc-js without http2Servers falls back to plain grpc-js for everything, saying so", async () => {
  const support = await checkRuntimeInternals({}, {
    session: () => Promise.reject(new Error("no session probe is needed")),
  });
  assert.deepEqual(
    { ...support, missing: support.missing.length },
    {
      closedStreamGuard: false,
      heartbeatLane: false,
      writeCoalescer: false,
      readModerator: false,
      missing: 1,
    },
  );
  assert.match(support.missing[0]!, /no http2Servers map: every call goes through plain grpc-js/);
});

Deno.test("everything in place: every workaround can run and nothing is missing", async () => {
  assert.deepEqual(await checkRuntimeInternals(fakeServer(1, 1), { session: full }), {
    closedStreamGuard: true,
    heartbeatLane: true,
    writeCoalescer: true,
    readModerator: true,
    missing: [],
  });
});

Deno.test("a server with other stream listeners than grpc-js's one leaves Heartbeats to grpc-js", async () => {
  const support = await checkRuntimeInternals(fakeServer(1, 2), { session: full });
  assert.equal(support.heartbeatLane, false);
  assert.equal(support.writeCoalescer, true);
  assert.deepEqual(support.missing.length, 1);
  assert.match(support.missing[0]!, /have 1, 2 stream listeners, not one each: Heartbeat calls/);
  const unwanted = await checkRuntimeInternals(fakeServer(0), {
    session: full,
    heartbeatLane: false,
  });
  assert.deepEqual([unwanted.heartbeatLane, unwanted.missing], [false, []]);
});

Deno.test("sessions without their socket or native handle turn off the coalescer and the moderator", async () => {
  const session = () => Promise.resolve({ writes: false, reads: false });
  const support = await checkRuntimeInternals(fakeServer(1), { session });
  assert.deepEqual([support.writeCoalescer, support.readModerator], [false, false]);
  assert.equal(support.missing.length, 2);
  assert.match(support.missing[0]!, /write_coalescer\.ts/);
  assert.match(support.missing[1]!, /read_moderator\.ts/);
  const quiet = await checkRuntimeInternals(fakeServer(1), { session, readModerator: false });
  assert.equal(quiet.missing.length, 1, "the moderator's gap is not said when it is not wanted");
});

Deno.test("interceptGrpcStreams refuses a server without exactly one stream listener", () => {
  for (const count of [0, 2]) {
    const http2 = new EventEmitter();
    for (let i = 0; i < count; i++) http2.on("stream", () => {});
    assert.throws(
      () => interceptGrpcStreams(http2, () => true, "the lane"),
      new TypeError(`the lane expects grpc-js's one stream listener, found ${count}`),
    );
  }
});

Deno.test("this grpc-js and this Deno have everything the workarounds rely on", async () => {
  // Fails, naming what is gone, after an upgrade of grpc-js or Deno that the server would
  // survive only by falling back.
  const server = new grpc.Server();
  await new Promise<number>((resolve, reject) =>
    server.bindAsync(
      "127.0.0.1:0",
      grpc.ServerCredentials.createInsecure(),
      (e, p) => e ? reject(e) : resolve(p),
    )
  );
  try {
    const support = await checkRuntimeInternals(server);
    assert.deepEqual(support.missing, []);
    assert.ok(support.heartbeatLane && support.writeCoalescer && support.readModerator);
    assert.equal(await probeSession(), await probeSession(), "probed once per process");
  } finally {
    await new Promise<void>((resolve) => server.tryShutdown(() => resolve()));
  }
});

/** What only the adapter may touch: grpc-js's private map and stream listener, Deno's fields. */
const INTERNALS: readonly RegExp[] = [
  /\bhttp2Servers\b(?!Of)/,
  /getOwnPropertySymbols/,
  /\._handle\b/,
  /\bkHandle\b/,
  /\.listeners\(\s*["']stream["']/,
];

async function* codeFiles(dir: string): AsyncGenerator<string> {
  for await (const entry of Deno.readDir(dir)) {
    const path = join(dir, entry.name);
    if (entry.isDirectory) yield* codeFiles(path);
    else if (entry.name.endsWith(".ts") && !entry.name.endsWith("_test.ts")) yield path;
  }
}

/** The lines of `text` that are code: comments (and so doc examples) left out. */
function codeLines(text: string): [number, string][] {
  return text.split("\n").map((line, i): [number, string] => [i + 1, line])
    .filter(([, line]) => !/^\s*(\/\/|\/\*|\*)/.test(line));
}

Deno.test("no code of src/ but _runtime_internals.ts reaches into grpc-js's or Deno's internals", async () => {
  const src = fileURLToPath(new URL("../../../", import.meta.url));
  const offenders: string[] = [];
  for await (const file of codeFiles(src)) {
    if (file.endsWith("_runtime_internals.ts")) continue;
    for (const [line, code] of codeLines(await Deno.readTextFile(file))) {
      const hit = INTERNALS.find((pattern) => pattern.test(code));
      if (hit) offenders.push(`src/${relative(src, file)}:${line}: ${code.trim()}`);
    }
  }
  assert.deepEqual(offenders, []);
  // The check itself: each pattern finds the access it stands for.
  const samples = [
    "const m = server.http2Servers;",
    "Object.getOwnPropertySymbols(session)",
    "socket._handle.readStop();",
    'find((s) => s.description === "kHandle")',
    'http2.listeners("stream")',
  ];
  assert.deepEqual(
    samples.map((code) => INTERNALS.some((p) => p.test(code))),
    samples.map(() => true),
  );
  assert.equal(INTERNALS.some((p) => p.test("http2ServersOf(server, user)")), false);
});
