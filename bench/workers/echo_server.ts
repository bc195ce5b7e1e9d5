// deno-lint-ignore-file no-console -- a worker reports failures on stderr
/**
 * Worker: a bare `@grpc/grpc-js` server, the baseline for the service's
 * throughput. Every call gets a fixed answer of the shape the real method
 * returns (a `GetShardOwnerResponse`, or a `HeartbeatResponse` with `shards`
 * assignments), so clients do the same decoding work as against the service.
 * Two codecs: "raw" paths decode nothing and send pre-encoded bytes; "proto"
 * paths decode the request and encode the answer with the service's own
 * proto-loader codec (what a grpc-js server with these protos does before
 * any application logic).
 *
 * Options: `{ shards?: number }` (assignments in the heartbeat answer, default 10).
 * Emits `{type:"ready", address}`.
 *
 * @module
 */
import type { Buffer } from "node:buffer";
import {
  ECHO_PATHS,
  getShardOwnerMethod,
  grpc,
  heartbeatMethod,
  type Method,
} from "../lib/wire.ts";
import { emit, serveCommands, workerOptions } from "./_protocol.ts";

const { shards = 10 } = workerOptions<{ shards?: number }>();

const ownerObject = {
  owner: "executor-0042",
  namespace: "bench",
  metadata: { address: "executor-0042.example:1234" },
};
const assignments: Record<string, unknown> = {};
for (let i = 0; i < shards; i++) {
  assignments[String(i)] = { status: "ASSIGNMENT_STATUS_READY", fencingToken: "123456" };
}
const heartbeatObject = {
  shardAssignments: assignments,
  migrationMode: "MIGRATION_MODE_ONBOARDED",
};
const ownerAnswer = getShardOwnerMethod.responseSerialize(ownerObject);
const heartbeatAnswer = heartbeatMethod.responseSerialize(heartbeatObject);

const raw = (path: string) => ({
  path,
  requestStream: false,
  responseStream: false,
  requestSerialize: (b: Buffer) => b,
  requestDeserialize: (b: Buffer) => b,
  responseSerialize: (b: Buffer) => b,
  responseDeserialize: (b: Buffer) => b,
});
const coded = (method: Method, path: string) => ({ ...method, path });
const fixed = <T>(answer: T) =>
(
  _call: grpc.ServerUnaryCall<unknown, T>,
  callback: grpc.sendUnaryData<T>,
) => callback(null, answer);

const server = new grpc.Server();
server.addService({
  Owner: raw(ECHO_PATHS.raw.owner),
  Heartbeat: raw(ECHO_PATHS.raw.heartbeat),
  OwnerProto: coded(getShardOwnerMethod, ECHO_PATHS.proto.owner),
  HeartbeatProto: coded(heartbeatMethod, ECHO_PATHS.proto.heartbeat),
}, {
  Owner: fixed(ownerAnswer),
  Heartbeat: fixed(heartbeatAnswer),
  OwnerProto: fixed(ownerObject),
  HeartbeatProto: fixed(heartbeatObject),
});
server.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (error, port) => {
  if (error) {
    console.error(error);
    Deno.exit(1);
  }
  emit({ type: "ready", address: `127.0.0.1:${port}` });
});
serveCommands(() => {});
