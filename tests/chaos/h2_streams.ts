/**
 * Counts the gRPC calls on one plaintext HTTP/2 connection from the bytes a
 * proxy relays, without decoding them: a call starts when the client sends
 * HEADERS on a stream it had not used, and ends when the server ends the
 * stream (END_STREAM on its trailers) or either side resets it (RST_STREAM).
 * The proxy feeds each direction's chunks as they pass; frames may be split
 * across chunks anywhere.
 *
 * @module
 */

const PREFACE_LENGTH = 24; // "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n"
const HEADER_LENGTH = 9;
const HEADERS = 1;
const RST_STREAM = 3;
const END_STREAM = 0x1;

/** One direction's frame headers, reassembled across chunks. */
class FrameReader {
  #skip: number;
  readonly #header = new Uint8Array(HEADER_LENGTH);
  #have = 0;

  constructor(skip: number) {
    this.#skip = skip;
  }

  /** Calls `onFrame(type, flags, stream)` for every frame header completed by `chunk`. */
  feed(chunk: Uint8Array, onFrame: (type: number, flags: number, stream: number) => void): void {
    let i = 0;
    while (i < chunk.length) {
      if (this.#skip > 0) {
        const n = Math.min(this.#skip, chunk.length - i);
        this.#skip -= n;
        i += n;
        continue;
      }
      const n = Math.min(HEADER_LENGTH - this.#have, chunk.length - i);
      this.#header.set(chunk.subarray(i, i + n), this.#have);
      this.#have += n;
      i += n;
      if (this.#have < HEADER_LENGTH) return;
      this.#have = 0;
      const h = this.#header;
      const length = (h[0]! << 16) | (h[1]! << 8) | h[2]!;
      const stream = ((h[5]! & 0x7f) << 24 | h[6]! << 16 | h[7]! << 8 | h[8]!) >>> 0;
      this.#skip = length;
      onFrame(h[3]!, h[4]!, stream);
    }
  }
}

/**
 * The calls of one connection.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { H2Streams } from "./h2_streams.ts";
 *
 * const frame = (type: number, flags: number, stream: number) =>
 *   new Uint8Array([0, 0, 0, type, flags, 0, 0, 0, stream]);
 * const calls = new H2Streams();
 * calls.fromClient(new Uint8Array(24)); // the preface
 * calls.fromClient(frame(1, 4, 1)); // HEADERS on stream 1: a call starts
 * assert.equal(calls.inFlight, 1);
 * calls.fromServer(frame(1, 5, 1)); // trailers with END_STREAM: it ends
 * assert.deepEqual([calls.started, calls.inFlight], [1, 0]);
 * ```
 */
export class H2Streams {
  readonly #client = new FrameReader(PREFACE_LENGTH);
  readonly #server = new FrameReader(0);
  readonly #open = new Set<number>();
  #highest = 0;
  #started = 0;

  /** Calls started on this connection. */
  get started(): number {
    return this.#started;
  }

  /** Calls started and not yet ended. */
  get inFlight(): number {
    return this.#open.size;
  }

  /** Bytes the client sent. */
  fromClient(chunk: Uint8Array): void {
    this.#client.feed(chunk, (type, _flags, stream) => {
      if (type === HEADERS && stream % 2 === 1 && stream > this.#highest) {
        this.#highest = stream;
        this.#open.add(stream);
        this.#started++;
      } else if (type === RST_STREAM) {
        this.#open.delete(stream);
      }
    });
  }

  /** Bytes the server sent. */
  fromServer(chunk: Uint8Array): void {
    this.#server.feed(chunk, (type, flags, stream) => {
      if (type === RST_STREAM || (flags & END_STREAM && (type === HEADERS || type === 0))) {
        this.#open.delete(stream);
      }
    });
  }

  /** The connection is gone: nothing is in flight on it any more. */
  close(): void {
    this.#open.clear();
  }
}
