/**
 * The Heartbeat lane against grpc-js, byte for byte (real gRPC, real etcd):
 * the same raw HTTP/2 requests go to an instance's server, which serves
 * Heartbeat on the lane, and to a second server of the same instance started
 * without it; every answer (status, headers, message, trailers) must be the
 * same. Covers good heartbeats, domain errors with typed details, bytes that
 * are not a request, framing mistakes, a message over the receive limit, and
 * the requests the lane leaves to grpc-js (compressed, a timeout grpc-js
 * refuses, a wrong content type).
 *
 * @module
 */
import assert from "node:assert/strict";
import { Buffer } from "node:buffer";
import http2 from "node:http2";
import { gzipSync } from "node:zlib";
import { startEtcd, uniquePrefix } from "./support/etcd.ts";
import { startInProcess, testConfigYaml } from "./support/service.ts";
import { startGrpcServer } from "../src/transport/grpc/server.ts";
import { silentLogger } from "../src/core/logger.ts";
import { executorService } from "../src/wire/proto.ts";
import { frameMessage as framed } from "../src/transport/grpc/fast_path/unary_frame_reader.ts";

const PATH = executorService.Heartbeat.path;

interface Answer {
  readonly headers: Record<string, unknown>;
  readonly body: string;
  readonly trailers: Record<string, unknown>;
}

/** One call over a fresh HTTP/2 connection; the answer without `date`. */
function rawCall(
  address: string,
  headers: Record<string, string>,
  body: Uint8Array,
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const session = http2.connect(`http://${address}`);
    session.on("error", reject);
    const request = session.request({
      ":method": "POST",
      ":path": PATH,
      te: "trailers",
      ...headers,
    });
    let answerHeaders: Record<string, unknown> = {};
    let trailers: Record<string, unknown> = {};
    const chunks: Buffer[] = [];
    request.on("response", (h) => answerHeaders = withoutDate(h));
    request.on("trailers", (t) => trailers = withoutDate(t));
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("error", reject);
    request.on("close", () => {
      session.close();
      resolve({ headers: answerHeaders, body: Buffer.concat(chunks).toString("hex"), trailers });
    });
    request.end(body);
  });
}

function withoutDate(headers: Record<string, unknown>): Record<string, unknown> {
  const { date: _, ...rest } = headers;
  return { ...rest };
}

const encode = (request: Record<string, unknown>) =>
  executorService.Heartbeat.requestSerialize(request as never);

const GRPC = { "content-type": "application/grpc", "grpc-timeout": "10S" };

Deno.test("the Heartbeat lane answers every request as grpc-js does", async () => {
  const etcd = await startEtcd();
  const instance = await startInProcess(testConfigYaml({
    endpoints: etcd.endpoints,
    prefix: uniquePrefix("lane"),
    namespaces: [{ name: "ns", type: "fixed", shardNum: 4 }],
    process: { heartbeatTTL: "30s" },
    limits: { maxReceiveMessageBytes: 64 * 1024 },
  }));
  const plain = await startGrpcServer(instance.manager, "127.0.0.1:0", silentLogger, {
    heartbeatLane: false,
  });
  const good = encode({ namespace: "ns", executorId: "a", status: "EXECUTOR_STATUS_ACTIVE" });
  const cases: [string, Record<string, string>, Uint8Array][] = [
    ["a heartbeat", GRPC, framed(good)],
    ["a heartbeat without a timeout", { "content-type": "application/grpc+proto" }, framed(good)],
    [
      "an unknown namespace",
      GRPC,
      framed(encode({ namespace: "nope", executorId: "a", status: "EXECUTOR_STATUS_ACTIVE" })),
    ],
    ["an invalid executor id", GRPC, framed(encode({ namespace: "ns", executorId: "" }))],
    ["bytes that are not a request", GRPC, framed(Uint8Array.of(0xff))],
    ["no message", GRPC, new Uint8Array()],
    ["two messages", GRPC, Buffer.concat([framed(good), framed(good)])],
    ["a message over the receive limit", GRPC, framed(new Uint8Array(100 * 1024))],
    ["half a message", GRPC, framed(good).subarray(0, 8)],
    ["gzip (grpc-js's)", { ...GRPC, "grpc-encoding": "gzip" }, framed(gzipSync(good), true)],
    ["a timeout grpc-js refuses (grpc-js's)", { ...GRPC, "grpc-timeout": "soon" }, framed(good)],
    ["not gRPC (grpc-js's)", { "content-type": "application/json" }, framed(good)],
  ];
  try {
    // The executor registers and takes its 4 shards first, so both servers see the same state.
    const decode = executorService.Heartbeat.responseDeserialize;
    for (let held = 0; held < 4;) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      const { body } = await rawCall(instance.server.address, GRPC, framed(good));
      held = Object.keys(decode(Buffer.from(body, "hex").subarray(5)).shardAssignments).length;
    }
    for (const [what, headers, body] of cases) {
      const lane = await rawCall(instance.server.address, headers, body);
      const grpcjs = await rawCall(plain.address, headers, body);
      assert.deepEqual(lane, grpcjs, what);
    }
  } finally {
    await plain.stop();
    await instance.stop();
    await etcd.close();
  }
});

Deno.test("a heartbeat past its deadline on the lane is DEADLINE_EXCEEDED", async () => {
  const etcd = await startEtcd();
  const instance = await startInProcess(testConfigYaml({
    endpoints: etcd.endpoints,
    prefix: uniquePrefix("lane-deadline"),
    namespaces: [{ name: "ns", type: "fixed", shardNum: 4 }],
  }));
  try {
    const good = encode({ namespace: "ns", executorId: "a", status: "EXECUTOR_STATUS_ACTIVE" });
    // 1 ns rounds to 0 ms in grpc-js's reading: expired on arrival.
    const late = await rawCall(
      instance.server.address,
      { ...GRPC, "grpc-timeout": "1n" },
      framed(good),
    );
    assert.equal(late.headers["grpc-status"], "4");
    assert.equal(late.headers["grpc-message"], "Deadline%20exceeded");
  } finally {
    await instance.stop();
    await etcd.close();
  }
});
