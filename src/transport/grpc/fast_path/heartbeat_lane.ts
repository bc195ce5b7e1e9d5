/**
 * The Heartbeat lane: the executors' Heartbeat calls served straight from the
 * HTTP/2 stream, past grpc-js's per-call machinery. Heartbeats are nearly
 * every call an instance answers (50,000 executors every 10 s is 5,000 a
 * second), and grpc-js spends on each one a call object, a metadata copy, an
 * interceptor chain, a deadline timer and a queue of events: about a third of
 * a bare grpc-js server's CPU per call (bench/limits.md, "Issue 17, ninth
 * step").
 *
 * The lane takes a stream only when its headers ask for nothing it does not
 * do: the Heartbeat path, a gRPC content type, no compression (`grpc-encoding`
 * absent or `identity`) and a `grpc-timeout` grpc-js would accept. Every other
 * stream goes to grpc-js as before, and so does every call when an authorizer
 * checks calls. What a lane call sends is what grpc-js sends for the same
 * call: the same response headers, message framing and trailers, the same
 * status codes and messages for a message over the receive limit, none or two
 * messages, an answer over the send limit, an expired deadline, and every
 * error of the handler (`settleCall`: status, message, typed detail).
 * Deadlines are checked by one shared timer every {@linkcode SWEEP_MS} ms and
 * when the answer is ready, not by a timer per call.
 *
 * What grpc-js keeps per call and the lane does not: channelz call counters
 * (this server does not enable channelz) and the count of a connection's open
 * calls behind `grpc.max_connection_idle_ms` (not set here either; a server
 * that sets it must count lane calls too, or busy connections would be closed
 * as idle). A Heartbeat's `sm_grpc_request_duration_seconds` runs from the
 * call's headers, so it includes reading its message.
 *
 * @module
 */
import { Buffer } from "node:buffer";
import type { EventEmitter } from "node:events";
import { status as Status } from "@grpc/grpc-js";
import { type Clock, startTimer, systemClock } from "../../../core/clock.ts";
import { http2ServersOf, interceptGrpcStreams } from "./_runtime_internals.ts";
import type { HeartbeatAnswerer } from "../heartbeat_handler.ts";
import { decoded } from "../malformed.ts";
import { frameMessage, type FrameProblem, UnaryFrameReader } from "./unary_frame_reader.ts";
import { type GrpcStatus, type HandlerContext, settleCall } from "../unary_handler.ts";

/** How often pending lane calls are checked against their deadlines, ms. */
export const SWEEP_MS = 20;

/** grpc-js's reading of `grpc-timeout` (server-interceptors.js). */
const TIMEOUT = /(\d{1,8})\s*([HMSmun])/;
const TIMEOUT_UNIT_MS: Readonly<Record<string, number>> = {
  H: 3_600_000,
  M: 60_000,
  S: 1_000,
  m: 1,
  u: 0.001,
  n: 0.000001,
};
const CONTENT_TYPE = "application/grpc+proto";

/** The part of a `node:http2` server stream the lane uses. */
export interface LaneStream extends EventEmitter {
  readonly destroyed: boolean;
  readonly closed: boolean;
  respond(headers: Record<string, unknown>, options?: Record<string, unknown>): void;
  sendTrailers(headers: Record<string, unknown>): void;
  end(chunk?: Uint8Array): void;
}

/** Request headers as `node:http2` gives them. */
export type LaneHeaders = Readonly<Record<string, string | string[] | undefined>>;

/** What the lane serves and with what. */
export interface HeartbeatLaneOptions {
  /** The Heartbeat method's path. */
  readonly path: string;
  /** Largest request message, bytes (grpc-js's `grpc.max_receive_message_length`). */
  readonly maxReceiveBytes: number;
  /** Largest answer message, bytes (grpc-js's `grpc.max_send_message_length`). */
  readonly maxSendBytes: number;
  /** The method's request deserializer (never throws: `malformed.ts`). */
  readonly deserialize: (bytes: Buffer) => unknown;
  /** The heartbeat's work. */
  readonly answer: HeartbeatAnswerer;
  /** Logging and observation, as for every handler. */
  readonly context: HandlerContext;
  /** Whose timers sweep expired deadlines. @default {systemClock} */
  readonly clock?: Clock;
}

/**
 * The deadline a `grpc-timeout` header gives, as grpc-js reads it: ms from
 * `now`, `Infinity` when absent, `undefined` when grpc-js would refuse it.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { deadlineOf } from "./heartbeat_lane.ts";
 *
 * assert.equal(deadlineOf("10S", 0), 10_000);
 * assert.equal(deadlineOf(undefined, 0), Infinity);
 * assert.equal(deadlineOf("soon", 0), undefined);
 * ```
 */
export function deadlineOf(header: string | string[] | undefined, now: number): number | undefined {
  if (header === undefined) return Infinity;
  const match = TIMEOUT.exec(String(header));
  if (!match) return undefined;
  return now + ((Number(match[1]) * TIMEOUT_UNIT_MS[match[2]!]!) | 0);
}

/**
 * True when the lane serves a stream with these headers (see the module).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { laneTakes } from "./heartbeat_lane.ts";
 *
 * const ok = { ":path": "/s/Heartbeat", "content-type": "application/grpc" };
 * assert.equal(laneTakes(ok, "/s/Heartbeat"), true);
 * assert.equal(laneTakes({ ...ok, "grpc-encoding": "gzip" }, "/s/Heartbeat"), false);
 * assert.equal(laneTakes({ ...ok, ":path": "/s/Other" }, "/s/Heartbeat"), false);
 * ```
 */
export function laneTakes(headers: LaneHeaders, path: string): boolean {
  if (headers[":path"] !== path) return false;
  const type = headers["content-type"];
  if (typeof type !== "string" || !type.startsWith("application/grpc")) return false;
  const encoding = headers["grpc-encoding"];
  if (encoding !== undefined && encoding !== "identity") return false;
  const timeout = headers["grpc-timeout"];
  return timeout === undefined || TIMEOUT.test(String(timeout));
}

/** Lane calls with a deadline that have not ended, checked every {@linkcode SWEEP_MS}. */
class DeadlineSweeper {
  readonly #calls = new Set<LaneCall>();
  readonly #clock: Clock;
  #armed = false;

  /** Sweeps on `clock`'s timers (deadlines are wall-clock times, from `Date.now()`). */
  constructor(clock: Clock) {
    this.#clock = clock;
  }

  /** Watches `call` until it ends. */
  add(call: LaneCall): void {
    this.#calls.add(call);
    if (!this.#armed) this.#arm();
  }

  /** Stops watching `call`. */
  delete(call: LaneCall): void {
    this.#calls.delete(call);
  }

  #arm(): void {
    // A sweep is housekeeping: it must not keep the process alive.
    this.#armed = true;
    startTimer(this.#clock, SWEEP_MS, () => this.#sweep(), { unref: true });
  }

  #sweep(): void {
    this.#armed = false;
    const now = Date.now();
    for (const call of this.#calls) {
      if (call.gone()) this.#calls.delete(call);
      else if (now >= call.deadline) call.fail(DEADLINE_EXCEEDED);
    }
    if (this.#calls.size > 0) this.#arm();
  }
}

const DEADLINE_EXCEEDED: GrpcStatus = {
  code: Status.DEADLINE_EXCEEDED,
  details: "Deadline exceeded",
};

/** One call on the lane: reads the request, runs the heartbeat, answers once. */
class LaneCall {
  readonly deadline: number;
  readonly #stream: LaneStream;
  readonly #sweeper: DeadlineSweeper;
  readonly #maxSendBytes: number;
  #ended = false;

  constructor(
    stream: LaneStream,
    deadline: number,
    sweeper: DeadlineSweeper,
    maxSendBytes: number,
  ) {
    this.#stream = stream;
    this.deadline = deadline;
    this.#sweeper = sweeper;
    this.#maxSendBytes = maxSendBytes;
  }

  /** True once the call has been answered or its client went away. */
  gone(): boolean {
    return this.#ended || this.#stream.destroyed || this.#stream.closed;
  }

  /** Sends `bytes` as the answer, or the status that stops it. */
  succeed(bytes: Uint8Array): void {
    if (this.gone()) return;
    if (Date.now() >= this.deadline) return this.fail(DEADLINE_EXCEEDED);
    const maxSendBytes = this.#maxSendBytes;
    if (maxSendBytes !== -1 && bytes.length > maxSendBytes) {
      return this.fail({
        code: Status.RESOURCE_EXHAUSTED,
        details: `Sent message larger than max (${bytes.length + 5} vs. ${maxSendBytes})`,
      });
    }
    this.#end();
    const framed = frameMessage(bytes);
    const stream = this.#stream;
    this.#guarded(() => {
      stream.respond({
        ":status": 200,
        "content-type": CONTENT_TYPE,
        "grpc-accept-encoding": "identity,deflate,gzip",
        "grpc-encoding": "identity",
      }, { waitForTrailers: true });
      stream.once(
        "wantTrailers",
        () =>
          this.#guarded(() => stream.sendTrailers({ "grpc-status": "0", "grpc-message": "OK" })),
      );
      stream.end(framed);
    });
  }

  /** Ends the call with `status`, trailers only (nothing was sent before). */
  fail(status: GrpcStatus | FrameProblem): void {
    if (this.gone()) return;
    this.#end();
    const extra = "metadata" in status ? status.metadata?.toHttp2Headers() : undefined;
    this.#guarded(() =>
      this.#stream.respond({
        "grpc-status": String(status.code),
        "grpc-message": encodeURI(status.details),
        ":status": 200,
        "content-type": CONTENT_TYPE,
        ...extra,
      }, { endStream: true })
    );
  }

  #end(): void {
    this.#ended = true;
    if (this.deadline !== Infinity) this.#sweeper.delete(this);
  }

  /** Runs a write; a stream that closed in between takes nothing, as in grpc-js. */
  #guarded(write: () => void): void {
    try {
      write();
    } catch (error) {
      if (!this.#stream.destroyed && !this.#stream.closed) throw error;
    }
  }
}

const IGNORE = () => {};

/**
 * The lane of one server: {@linkcode installHeartbeatLane} puts it in front
 * of grpc-js.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { HeartbeatLane } from "./heartbeat_lane.ts";
 * import type { Logger } from "../../../core/logger.ts";
 *
 * const lane = new HeartbeatLane({
 *   path: "/s/Heartbeat",
 *   maxReceiveBytes: 1024,
 *   maxSendBytes: 1024,
 *   deserialize: (bytes) => bytes,
 *   answer: () => Promise.resolve(new Uint8Array()),
 *   context: { logger: console as unknown as Logger, observer: {} },
 * });
 * assert.equal(lane.takes({ ":path": "/s/Heartbeat", "content-type": "application/grpc" }), true);
 * ```
 */
export class HeartbeatLane {
  readonly #options: HeartbeatLaneOptions;
  readonly #sweeper: DeadlineSweeper;

  /** A lane serving with `options`. */
  constructor(options: HeartbeatLaneOptions) {
    this.#options = options;
    this.#sweeper = new DeadlineSweeper(options.clock ?? systemClock);
  }

  /** True when this lane serves a stream with these headers ({@linkcode laneTakes}). */
  takes(headers: LaneHeaders): boolean {
    return laneTakes(headers, this.#options.path);
  }

  /** Serves one Heartbeat call on `stream`. */
  serve(stream: LaneStream, headers: LaneHeaders): void {
    // A stream already gone (closed_stream_guard.ts): nobody to answer.
    if (stream.destroyed || stream.closed) return;
    const started = performance.now();
    const options = this.#options;
    const deadline = deadlineOf(headers["grpc-timeout"], Date.now()) ?? Infinity;
    const call = new LaneCall(stream, deadline, this.#sweeper, options.maxSendBytes);
    if (deadline !== Infinity) this.#sweeper.add(call);
    const reader = new UnaryFrameReader(options.path, options.maxReceiveBytes);
    // Errors of a stream end in its close; the call is then gone (as in grpc-js).
    stream.on("error", IGNORE);
    stream.on("data", (chunk: Buffer) => {
      if (call.gone()) return;
      const problem = reader.push(chunk);
      if (problem) call.fail(problem);
    });
    stream.on("end", () => {
      if (call.gone()) return;
      const message = reader.end();
      if (!Buffer.isBuffer(message)) return call.fail(message);
      settleCall(
        options.context,
        "Heartbeat",
        started,
        () => options.answer(decoded(options.deserialize(message) as never)),
        (error, bytes) => error ? call.fail(error) : call.succeed(bytes!),
      );
    });
  }
}

/**
 * Puts the lane in front of grpc-js's stream listener on every HTTP/2 server
 * of the bound grpc-js `server`; streams the lane does not take go to
 * grpc-js unchanged. Install it right after binding, before any other stream
 * listener. Returns the number of HTTP/2 servers it was installed on.
 *
 * @example
 * ```ts ignore
 * installHeartbeatLane(server, new HeartbeatLane(options));
 * ```
 */
export function installHeartbeatLane(server: object, lane: HeartbeatLane): number {
  const servers = http2ServersOf(server, "the Heartbeat lane");
  for (const http2 of servers) {
    interceptGrpcStreams(http2, (stream: LaneStream, headers: LaneHeaders) => {
      if (!lane.takes(headers)) return false;
      lane.serve(stream, headers);
      return true;
    }, "the Heartbeat lane");
  }
  return servers.length;
}
