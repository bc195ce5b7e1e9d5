/**
 * Worker: many raw `WatchNamespaceState` streams in one process, as
 * spectators. Each remembers when it first reached each revision and how many
 * bytes each message had on the wire (protobuf payload).
 *
 * Commands:
 * - `{type:"wait", revision, timeoutMs}` → `{type:"reached", times}`: for every
 *   stream, when (ms since the epoch, sub-ms precision) it first received a
 *   message at or past `revision`; NaN for streams that had not within the
 *   timeout.
 * - `{type:"bytes"}` → `{type:"bytes", snapshots, deltas}`: payload sizes of
 *   all messages received so far, by kind.
 *
 * Emits `{type:"ready", firstMs, receivedMs}` once every stream has its first
 * snapshot; `firstMs[i]`: ms from opening stream `i` to its first message,
 * decoded; `receivedMs[i]`: to its last byte received, before the decode.
 *
 * @module
 */
import type { Buffer } from "node:buffer";
import type { WatchNamespaceStateResponse__Output } from "../../src/wire/proto.ts";
import { grpc, openClient, watchMethod } from "../lib/wire.ts";
import { emit, preciseNow, serveCommands, workerOptions } from "./_protocol.ts";

/** Options of the worker. */
export interface SpectatorFleetOptions {
  /** Service address. */
  readonly address: string;
  /** Namespace. */
  readonly namespace: string;
  /** Streams. */
  readonly streams: number;
  /** Connections they share. */
  readonly channels: number;
  /** Ask for deltas after the first snapshot. */
  readonly acceptDeltas: boolean;
}

interface Stream {
  revision: number;
  /** (revision, arrival) of recent messages, oldest first. */
  history: [number, number][];
}

const options = workerOptions<SpectatorFleetOptions>();
const clients = Array.from({ length: options.channels }, () => openClient(options.address));
const snapshotBytes: number[] = [];
const deltaBytes: number[] = [];
const streams: Stream[] = [];
const firstMs: number[] = [];
const receivedMs: number[] = [];
let pending: { revision: number; check: () => void } | undefined;
let ready = 0;

function open(index: number): void {
  const stream: Stream = { revision: 0, history: [] };
  streams.push(stream);
  const openedAt = preciseNow();
  let size = 0;
  const deserialize = (buffer: Buffer) => {
    receivedMs[index] ??= preciseNow() - openedAt;
    size = buffer.length;
    return watchMethod.responseDeserialize(buffer);
  };
  const call = clients[index % clients.length]!.makeServerStreamRequest(
    watchMethod.path,
    watchMethod.requestSerialize,
    deserialize,
    { namespace: options.namespace, acceptDeltas: options.acceptDeltas },
    new grpc.Metadata(),
    {},
  );
  call.on("data", (message: WatchNamespaceStateResponse__Output) => {
    const at = preciseNow();
    const revision = Number(message.revision);
    if (stream.revision === 0) {
      firstMs[index] = at - openedAt;
      if (++ready === options.streams) emit({ type: "ready", firstMs, receivedMs });
    }
    (message.isDelta ? deltaBytes : snapshotBytes).push(size);
    stream.revision = revision;
    stream.history.push([revision, at]);
    if (stream.history.length > 64) stream.history.splice(0, 32);
    pending?.check();
  });
  call.on("error", (error: Error) => {
    if (!String(error.message).includes("Cancelled")) {
      emit({ type: "error", message: `stream ${index}: ${error.message}` });
    }
  });
}

function arrival(stream: Stream, revision: number): number {
  for (const [r, at] of stream.history) if (r >= revision) return at;
  return NaN;
}

function wait(revision: number, timeoutMs: number): Promise<void> {
  return new Promise((resolve) => {
    const finish = () => {
      clearTimeout(timer);
      pending = undefined;
      emit({ type: "reached", times: streams.map((s) => arrival(s, revision)) });
      resolve();
    };
    const check = () => {
      if (streams.every((s) => s.revision >= revision)) finish();
    };
    const timer = setTimeout(finish, timeoutMs);
    pending = { revision, check };
    check();
  });
}

for (let i = 0; i < options.streams; i++) open(i);

serveCommands(async (command) => {
  if (command.type === "wait") await wait(Number(command.revision), Number(command.timeoutMs));
  if (command.type === "bytes") {
    emit({ type: "bytes", snapshots: snapshotBytes, deltas: deltaBytes });
  }
});
