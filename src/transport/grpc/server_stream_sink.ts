/**
 * A grpc-js server stream as a `WritableStream`, so that a server-streaming
 * handler is a `pipeTo` and backpressure flows from the HTTP/2 socket back to
 * the source: when `call.write()` returns false the sink's write waits for
 * `'drain'`, and the pipe reads nothing more until then. Behind the watch
 * handler the source is the fan-out's latest-value stream, which builds a
 * message only when pulled, so a slow spectator costs one message in flight
 * and skips the versions it was too slow for.
 *
 * @module
 */

/** The part of a grpc-js server stream (`ServerWritableStream`) the sink uses. */
export interface ServerStreamCall<W> {
  /** Queues a message; false once the stream's buffer is full (wait for `'drain'`). */
  write(message: W): boolean;
  /** Ends the call with status OK. */
  end(): void;
  /** Listens once for `'drain'`. */
  once(event: "drain", listener: () => void): unknown;
  /** Stops listening for `'drain'`. */
  removeListener(event: "drain", listener: () => void): unknown;
}

/** Options of {@linkcode serverStreamSink}. */
export interface ServerStreamSinkOptions<T, W> {
  /** Turns a chunk into the message written (the shared, pre-encoded bytes, say). */
  readonly encode: (chunk: T) => W;
  /**
   * Aborts when the call is cancelled or closed: a write waiting for `'drain'`
   * then fails at once, so a pipe with the same signal can stop.
   */
  readonly signal: AbortSignal;
}

/**
 * Writes each chunk to `call`, one at a time: a write resolves once the call
 * took the message and, when the call reported a full buffer, once it has
 * drained. Closing the sink ends the call (OK); aborting it leaves the call to
 * whoever maps the error.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { EventEmitter } from "node:events";
 * import { serverStreamSink } from "./server_stream_sink.ts";
 *
 * const sent: string[] = [];
 * let ended = false;
 * const call = Object.assign(new EventEmitter(), {
 *   write: (message: string) => sent.push(message) !== 2, // full after the second
 *   end: () => ended = true,
 * });
 * const signal = new AbortController().signal;
 * const piping = ReadableStream.from([1, 2, 3])
 *   .pipeTo(serverStreamSink(call, { encode: (n: number) => `#${n}`, signal }));
 * await new Promise((resolve) => setTimeout(resolve, 0));
 * assert.deepEqual(sent, ["#1", "#2"]); // waits for 'drain'
 * call.emit("drain");
 * await piping;
 * assert.deepEqual(sent, ["#1", "#2", "#3"]);
 * assert.equal(ended, true);
 * ```
 */
export function serverStreamSink<T, W>(
  call: ServerStreamCall<W>,
  options: ServerStreamSinkOptions<T, W>,
): WritableStream<T> {
  const { encode, signal } = options;
  return new WritableStream<T>({
    write(chunk) {
      if (signal.aborted) return Promise.reject(signal.reason);
      if (call.write(encode(chunk))) return;
      return new Promise<void>((resolve, reject) => {
        const onDrain = () => {
          signal.removeEventListener("abort", onAbort);
          resolve();
        };
        const onAbort = () => {
          call.removeListener("drain", onDrain);
          reject(signal.reason);
        };
        call.once("drain", onDrain);
        signal.addEventListener("abort", onAbort, { once: true });
      });
    },
    close() {
      if (!signal.aborted) call.end();
    },
  });
}

/**
 * A signal that aborts when the client cancels `call` or the call closes:
 * what a server-streaming handler hands to the stream it pipes.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { EventEmitter } from "node:events";
 * import { callSignal } from "./server_stream_sink.ts";
 *
 * const call = new EventEmitter();
 * const signal = callSignal(call);
 * call.emit("cancelled");
 * assert.equal(signal.aborted, true);
 * ```
 */
export function callSignal(
  call: { on(event: "cancelled" | "close", listener: () => void): unknown },
): AbortSignal {
  const cancelled = new AbortController();
  call.on("cancelled", () => cancelled.abort());
  call.on("close", () => cancelled.abort());
  return cancelled.signal;
}
