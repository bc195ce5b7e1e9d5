/**
 * Raw HTTP/2 for tests that must misbehave the way no gRPC library will: a
 * frame builder, header blocks in plain HPACK literals, gRPC request bodies,
 * and a connection that writes frames by hand (RST_STREAM, GOAWAY, half a
 * frame, a close that resets the TCP connection).
 *
 * @module
 */
import { frameMessage } from "../../src/transport/grpc/fast_path/unary_frame_reader.ts";

/** The client connection preface. */
export const PREFACE: Uint8Array = new TextEncoder().encode("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n");

/** HTTP/2 frame types used here. */
export const FRAME = {
  DATA: 0,
  HEADERS: 1,
  RST_STREAM: 3,
  SETTINGS: 4,
  PING: 6,
  GOAWAY: 7,
  WINDOW_UPDATE: 8,
} as const;

/** Frame flags used here. */
export const FLAG = { END_STREAM: 0x1, ACK: 0x1, END_HEADERS: 0x4 } as const;

/** An HTTP/2 frame header (9 bytes) and payload; `length` may lie about the payload. */
export function frame(
  type: number,
  flags: number,
  stream: number,
  payload: Uint8Array,
  length?: number,
): Uint8Array {
  const out = new Uint8Array(9 + payload.length);
  const len = length ?? payload.length;
  out.set([(len >> 16) & 0xff, (len >> 8) & 0xff, len & 0xff, type, flags], 0);
  new DataView(out.buffer).setUint32(5, stream >>> 0);
  out.set(payload, 9);
  return out;
}

/** An empty SETTINGS frame. */
export const EMPTY_SETTINGS: Uint8Array = frame(FRAME.SETTINGS, 0, 0, new Uint8Array());

/** An HPACK integer with an `n`-bit prefix whose high bits are `high`. */
function hpackInteger(value: number, n: number, high: number): number[] {
  const max = (1 << n) - 1;
  if (value < max) return [high | value];
  const out = [high | max];
  value -= max;
  while (value >= 128) {
    out.push((value % 128) + 128);
    value = Math.floor(value / 128);
  }
  out.push(value);
  return out;
}

/** A header block of literals without indexing (no Huffman coding, no table). */
export function headerBlock(headers: readonly (readonly [string, string])[]): Uint8Array {
  const encoder = new TextEncoder();
  const bytes: number[] = [];
  for (const [name, value] of headers) {
    const n = encoder.encode(name), v = encoder.encode(value);
    bytes.push(0x00, ...hpackInteger(n.length, 7, 0), ...n, ...hpackInteger(v.length, 7, 0), ...v);
  }
  return Uint8Array.from(bytes);
}

/** The request headers of a gRPC call of `path` (`/package.Service/Method`). */
export function grpcHeaders(path: string, authority: string): Uint8Array {
  return headerBlock([
    [":method", "POST"],
    [":scheme", "http"],
    [":path", path],
    [":authority", authority],
    ["content-type", "application/grpc"],
    ["te", "trailers"],
  ]);
}

/** A protobuf message of string fields only (field number → value), encoded. */
export function stringFields(fields: Readonly<Record<number, string>>): Uint8Array {
  const bytes: number[] = [];
  for (const [number, value] of Object.entries(fields)) {
    const v = new TextEncoder().encode(value);
    bytes.push(...varint(Number(number) << 3 | 2), ...varint(v.length), ...v);
  }
  return Uint8Array.from(bytes);
}

function varint(value: number): number[] {
  const out: number[] = [];
  while (value >= 0x80) {
    out.push((value & 0x7f) | 0x80);
    value >>>= 7;
  }
  out.push(value);
  return out;
}

/** A GOAWAY frame naming `lastStream` and an error code (0: NO_ERROR). */
export function goaway(lastStream: number, errorCode = 0): Uint8Array {
  const payload = new Uint8Array(8);
  new DataView(payload.buffer).setUint32(0, lastStream >>> 0);
  new DataView(payload.buffer).setUint32(4, errorCode >>> 0);
  return frame(FRAME.GOAWAY, 0, 0, payload);
}

/** A RST_STREAM frame (8: CANCEL). */
export function rstStream(stream: number, errorCode = 8): Uint8Array {
  const payload = new Uint8Array(4);
  new DataView(payload.buffer).setUint32(0, errorCode >>> 0);
  return frame(FRAME.RST_STREAM, 0, stream, payload);
}

/** A raw HTTP/2 connection: write frames by hand, count what comes back. */
export class RawH2Connection {
  readonly #conn: Deno.TcpConn;
  readonly #reading: Promise<void>;
  #received = 0;
  #unread = false;
  #waiters = new Set<{ readonly target: number; readonly done: () => void }>();

  private constructor(conn: Deno.TcpConn, read: boolean) {
    this.#conn = conn;
    this.#reading = read ? this.#read() : Promise.resolve();
    this.#unread = !read;
  }

  /**
   * Opens a connection to `address` (`host:port`) and sends the preface and
   * empty SETTINGS. With `read: false` nothing is ever read, so that closing
   * it with data waiting makes the kernel reset the TCP connection.
   */
  static async open(
    address: string,
    options: { readonly read?: boolean } = {},
  ): Promise<RawH2Connection> {
    const cut = address.lastIndexOf(":");
    const conn = await Deno.connect({
      hostname: address.slice(0, cut),
      port: Number(address.slice(cut + 1)),
    });
    const raw = new RawH2Connection(conn, options.read ?? true);
    await raw.write(PREFACE, EMPTY_SETTINGS, frame(FRAME.SETTINGS, FLAG.ACK, 0, new Uint8Array()));
    return raw;
  }

  /** Bytes received so far (0 when the connection does not read). */
  get received(): number {
    return this.#received;
  }

  /** Writes `chunks` in order; false when the server has hung up. */
  async write(...chunks: Uint8Array[]): Promise<boolean> {
    try {
      for (const chunk of chunks) await this.#conn.write(chunk);
      return true;
    } catch {
      return false;
    }
  }

  /** Opens stream `id` on `path` with one request message (and END_STREAM after it). */
  request(
    id: number,
    path: string,
    message: Uint8Array,
    authority = "localhost",
  ): Promise<boolean> {
    return this.write(
      frame(FRAME.HEADERS, FLAG.END_HEADERS, id, grpcHeaders(path, authority)),
      frame(FRAME.DATA, FLAG.END_STREAM, id, frameMessage(message)),
    );
  }

  /** Resolves true once at least `bytes` more bytes have arrived, false after `timeoutMs`. */
  waitForBytes(bytes: number, timeoutMs: number): Promise<boolean> {
    const target = this.#received + bytes;
    if (this.#received >= target) return Promise.resolve(true);
    const { promise, resolve } = Promise.withResolvers<boolean>();
    const timer = setTimeout(() => {
      this.#waiters.delete(waiter);
      resolve(false);
    }, timeoutMs);
    const waiter = { target, done: () => (clearTimeout(timer), resolve(true)) };
    this.#waiters.add(waiter);
    return promise;
  }

  /** Closes the socket (a reset when unread data is waiting) and stops reading. */
  async close(): Promise<void> {
    try {
      this.#conn.close();
    } catch { /* closed by the server */ }
    await this.#reading;
  }

  /** True when this connection never reads (its close is a reset once data arrived). */
  get resets(): boolean {
    return this.#unread;
  }

  async #read(): Promise<void> {
    const buffer = new Uint8Array(16_384);
    try {
      for (;;) {
        const n = await this.#conn.read(buffer);
        if (n === null) return;
        this.#received += n;
        for (const waiter of this.#waiters) {
          if (this.#received < waiter.target) continue;
          this.#waiters.delete(waiter);
          waiter.done();
        }
      }
    } catch { /* reset or closed */ }
  }
}
