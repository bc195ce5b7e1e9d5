// deno-lint-ignore-file no-console -- a diagnostic tool prints its result
/**
 * What the transport alone costs per spread-out call on this machine, with
 * no Shard Manager behind it: a server process answers fixed replies while a
 * client process sends `rate` calls a second over 8 connections, each call
 * on its own timer as the executors suite's simulated executors send them.
 * Prints the server's CPU time per call for each transport, measured in the
 * same run one after the other:
 *
 * - `tcp`: `node:net`, a 200-byte request answered with 100 bytes, no
 *   framing: the floor any transport on this runtime pays for a socket read
 *   and write;
 * - `http2`: `node:http2` answering a fixed gRPC answer (headers, one
 *   message, trailers) with the instance's write coalescer;
 * - `http2+moderated`: the same with the instance's read moderator.
 *
 * ```sh
 * deno run -A bench/tools/transport_floor.ts [rate=5000] [reps=1]
 * ```
 *
 * @module
 */
import net from "node:net";
import http2 from "node:http2";
import { cpuSecondsOf } from "../lib/proc.ts";
import { RawUnaryClient } from "../lib/raw_unary.ts";
import { frameMessage } from "../../src/transport/grpc/fast_path/unary_frame_reader.ts";
import { coalesceSessionWrites } from "../../src/transport/grpc/fast_path/write_coalescer.ts";
import {
  DEFAULT_READ_WINDOW_MS,
  ReadModerator,
} from "../../src/transport/grpc/fast_path/read_moderator.ts";
import { sessionSocket } from "../../src/transport/grpc/fast_path/_runtime_internals.ts";
import { sleep } from "../lib/wait.ts";

const MODES = ["tcp", "http2", "http2+moderated"] as const;
type Mode = typeof MODES[number];
const CONNECTIONS = 8;
const REQUEST_BYTES = 200;
const REPLY_BYTES = 100;
const RUN_S = 25;
const WARM_S = 8;
const MEASURE_S = 12;

const arg = (name: string, fallback: number) => {
  const found = Deno.args.find((a) => a.startsWith(`${name}=`));
  return found ? Number(found.slice(name.length + 1)) : fallback;
};

/** Serves `mode` on `port` until killed. */
function serve(mode: Mode, port: number): void {
  if (mode === "tcp") {
    net.createServer((socket) => {
      socket.setNoDelay(true);
      socket.on("error", () => {});
      let pending = 0;
      socket.on("data", (chunk: Uint8Array) => {
        pending += chunk.length;
        const calls = Math.floor(pending / REQUEST_BYTES);
        pending -= calls * REQUEST_BYTES;
        if (calls > 0) socket.write(new Uint8Array(calls * REPLY_BYTES));
      });
    }).listen(port, "127.0.0.1");
    return;
  }
  const answer = frameMessage(new Uint8Array(REPLY_BYTES - 5));
  const moderator = mode === "http2+moderated"
    ? new ReadModerator(DEFAULT_READ_WINDOW_MS)
    : undefined;
  const server = http2.createServer();
  server.on("session", (session) => {
    coalesceSessionWrites(session);
    moderator?.watch(sessionSocket(session));
  });
  server.on("stream", (stream: http2.ServerHttp2Stream) => {
    stream.on("error", () => {});
    stream.on("data", () => {});
    stream.on("end", () => {
      stream.respond({ ":status": 200, "content-type": "application/grpc" }, {
        waitForTrailers: true,
      });
      stream.on(
        "wantTrailers",
        () => stream.sendTrailers({ "grpc-status": "0", "grpc-message": "OK" }),
      );
      stream.end(answer);
    });
  });
  server.listen(port, "127.0.0.1");
}

/** Sends `rate` calls a second for RUN_S seconds; prints how many were answered. */
async function load(mode: Mode, port: number, rate: number): Promise<void> {
  let answered = 0;
  let send: (i: number) => void;
  if (mode === "tcp") {
    const request = new Uint8Array(REQUEST_BYTES);
    const sockets = Array.from({ length: CONNECTIONS }, () => {
      const socket = net.connect(port, "127.0.0.1");
      socket.setNoDelay(true);
      socket.on("data", (chunk: Uint8Array) => answered += chunk.length / REPLY_BYTES);
      return socket;
    });
    send = (i) => sockets[i % CONNECTIONS]!.write(request);
  } else {
    const body = frameMessage(new Uint8Array(REQUEST_BYTES - 5));
    const clients = Array.from(
      { length: CONNECTIONS },
      () => new RawUnaryClient(`127.0.0.1:${port}`),
    );
    send = (i) =>
      void clients[i % CONNECTIONS]!.call("/floor.Test/Call", body, 10_000).then(
        () => answered++,
        () => {},
      );
  }
  // One simulated caller per call a second, each on its own timer (±10%).
  for (let i = 0; i < rate; i++) {
    const beat = () => {
      send(i);
      setTimeout(beat, 1000 * (0.9 + 0.2 * Math.random()));
    };
    setTimeout(beat, Math.random() * 1000);
  }
  await sleep(RUN_S * 1000);
  console.log(JSON.stringify({ answered }));
  Deno.exit(0);
}

function spawn(role: string, mode: Mode, port: number, rate: number): Deno.ChildProcess {
  return new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", import.meta.filename!, role, mode, String(port), String(rate)],
    stdout: "piped",
    stderr: "inherit",
  }).spawn();
}

async function measure(mode: Mode, rate: number): Promise<number> {
  const port = 20_000 + Math.floor(Math.random() * 20_000);
  const server = spawn("serve", mode, port, rate);
  try {
    await sleep(2_000);
    const client = spawn("load", mode, port, rate);
    await sleep(WARM_S * 1000);
    const before = cpuSecondsOf(server.pid);
    await sleep(MEASURE_S * 1000);
    const cpu = cpuSecondsOf(server.pid) - before;
    const out = new TextDecoder().decode((await client.output()).stdout);
    const answered = JSON.parse(out.trim().split("\n").pop()!).answered as number;
    if (answered < rate * RUN_S * 0.9) throw new Error(`${mode}: only ${answered} calls answered`);
    return (cpu / MEASURE_S / rate) * 1e6;
  } finally {
    server.kill();
    await server.output();
  }
}

const [role, mode, port, rate] = Deno.args;
if (role === "serve") serve(mode as Mode, Number(port));
else if (role === "load") await load(mode as Mode, Number(port), Number(rate));
else {
  const callsPerS = arg("rate", 5_000);
  const reps = arg("reps", 1);
  console.log(`${callsPerS} calls/s over ${CONNECTIONS} connections, server CPU per call:`);
  for (let rep = 1; rep <= reps; rep++) {
    for (const m of MODES) {
      console.log(`  ${m.padEnd(16)} ${(await measure(m, callsPerS)).toFixed(0)} µs (rep ${rep})`);
    }
  }
}
