/**
 * The request message of a unary gRPC call, read from the HTTP/2 stream's
 * DATA chunks as they arrive: a 5-byte prefix (compressed flag, 4-byte
 * big-endian length) and the message. It finds the mistakes grpc-js's own
 * server finds, with the same status codes and messages: a message longer
 * than the receive limit (RESOURCE_EXHAUSTED), no message or a second one
 * (UNIMPLEMENTED). Used by the Heartbeat lane (`heartbeat_lane.ts`), which
 * frames its answers with {@linkcode frameMessage}.
 *
 * @module
 */
import { Buffer } from "node:buffer";
import { status as Status } from "@grpc/grpc-js";

/** A status the reader ends a call with. */
export interface FrameProblem {
  /** The gRPC status code. */
  readonly code: Status;
  /** Its message. */
  readonly details: string;
}

const PREFIX = 5;

/**
 * `message` with its 5-byte gRPC prefix: the compressed flag (set only when
 * `compressed`; the bytes are not compressed here) and the big-endian length.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { frameMessage } from "./unary_frame_reader.ts";
 *
 * assert.deepEqual([...frameMessage(Uint8Array.of(7, 8))], [0, 0, 0, 0, 2, 7, 8]);
 * assert.equal(frameMessage(Uint8Array.of(7), true)[0], 1);
 * ```
 */
export function frameMessage(message: Uint8Array, compressed = false): Buffer {
  const out = Buffer.allocUnsafe(PREFIX + message.length);
  out[0] = compressed ? 1 : 0;
  out.writeUInt32BE(message.length, 1);
  out.set(message, PREFIX);
  return out;
}

/**
 * Reads one length-prefixed message; `push` each chunk, then `end`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { Buffer } from "node:buffer";
 * import { UnaryFrameReader } from "./unary_frame_reader.ts";
 *
 * const reader = new UnaryFrameReader("/s/M", 100);
 * assert.equal(reader.push(Buffer.of(0, 0, 0, 0)), undefined);
 * assert.equal(reader.push(Buffer.of(2, 7, 8)), undefined);
 * assert.deepEqual([...(reader.end() as Buffer)], [7, 8]);
 * ```
 */
export class UnaryFrameReader {
  readonly #path: string;
  readonly #max: number;
  #chunks: Buffer[] = [];
  #buffered = 0;
  #message: Buffer | undefined;

  /** `path` names the method in messages; `maxBytes` bounds the message (-1: no bound). */
  constructor(path: string, maxBytes: number) {
    this.#path = path;
    this.#max = maxBytes;
  }

  /** Takes one chunk; returns the problem that ends the call, if any. */
  push(chunk: Buffer): FrameProblem | undefined {
    this.#chunks.push(chunk);
    this.#buffered += chunk.length;
    while (this.#buffered >= PREFIX) {
      const head = this.#head();
      const length = head.readUInt32BE(1);
      if (this.#max !== -1 && length > this.#max) {
        return {
          code: Status.RESOURCE_EXHAUSTED,
          details: `Received message larger than max (${length} vs ${this.#max})`,
        };
      }
      if (this.#buffered < PREFIX + length) return undefined;
      if (this.#message !== undefined) {
        return {
          code: Status.UNIMPLEMENTED,
          details: `Received a second request message for server streaming method ${this.#path}`,
        };
      }
      this.#message = this.#take(PREFIX + length).subarray(PREFIX);
    }
    return undefined;
  }

  /** At the end of the request: its message, or the problem. */
  end(): Buffer | FrameProblem {
    return this.#message ?? {
      code: Status.UNIMPLEMENTED,
      details: `Received no request message for server streaming method ${this.#path}`,
    };
  }

  /** The first chunk, joined with the next ones until it holds a whole prefix. */
  #head(): Buffer {
    let first = this.#chunks[0]!;
    if (first.length < PREFIX) {
      first = Buffer.concat(this.#chunks);
      this.#chunks = [first];
    }
    return first;
  }

  /** Removes the first `n` buffered bytes and returns them (a view when one chunk holds them). */
  #take(n: number): Buffer {
    const first = this.#chunks[0]!;
    let taken: Buffer;
    if (first.length >= n) {
      taken = first.subarray(0, n);
      if (first.length === n) this.#chunks.shift();
      else this.#chunks[0] = first.subarray(n);
    } else {
      const all = Buffer.concat(this.#chunks);
      taken = all.subarray(0, n);
      this.#chunks = all.length > n ? [all.subarray(n)] : [];
    }
    this.#buffered -= n;
    return taken;
  }
}
