/**
 * A lean unary gRPC client for load generators: requests already encoded,
 * sent on one `node:http2` connection, answers kept as bytes. It speaks the
 * same gRPC as any client (a 5-byte-prefixed message, `grpc-timeout`, status
 * in the trailers), without grpc-js's per-call objects, which cost a
 * simulated fleet about as much CPU per heartbeat as the instance it measures
 * (bench/limits.md, "Issue 17, ninth step"). No retries, no name resolution,
 * no keepalive: what a benchmark on loopback needs, nothing more.
 *
 * @module
 */
import { Buffer } from "node:buffer";
import http2 from "node:http2";

/** A failed call: its gRPC status (or -1 when the connection failed) and message. */
export class RawCallError extends Error {
  /** The gRPC status code, -1 when no status arrived. */
  readonly code: number;

  /** An error for status `code`. */
  constructor(code: number, message: string) {
    super(`${code} ${message}`);
    this.name = "RawCallError";
    this.code = code;
  }
}

/** Unary calls to one address over one HTTP/2 connection, opened again after it fails. */
export class RawUnaryClient {
  readonly #authority: string;
  #session: http2.ClientHttp2Session | undefined;

  /** A client of `address` (`host:port`, plaintext). */
  constructor(address: string) {
    this.#authority = `http://${address}`;
  }

  #open(): http2.ClientHttp2Session {
    const current = this.#session;
    if (current && !current.closed && !current.destroyed) return current;
    const session = http2.connect(this.#authority);
    session.on("error", () => {}); // its streams fail with it, and the next call reconnects
    this.#session = session;
    return session;
  }

  /**
   * Sends `body` (a framed message: `frameMessage` of
   * `src/transport/grpc/fast_path/unary_frame_reader.ts`) to `path`; resolves
   * with the answer's message bytes.
   *
   * @example
   * ```ts ignore
   * const client = new RawUnaryClient("127.0.0.1:7943");
   * const answer = await client.call(path, frameMessage(request), 10_000);
   * ```
   */
  call(path: string, body: Uint8Array, deadlineMs: number): Promise<Buffer> {
    return new Promise((resolve, reject) => {
      let stream: http2.ClientHttp2Stream;
      try {
        stream = this.#open().request({
          ":method": "POST",
          ":path": path,
          "content-type": "application/grpc",
          te: "trailers",
          "grpc-timeout": `${Math.max(1, Math.round(deadlineMs))}m`,
        });
      } catch (error) {
        this.#session = undefined;
        reject(new RawCallError(-1, error instanceof Error ? error.message : String(error)));
        return;
      }
      const chunks: Buffer[] = [];
      let status: string | undefined;
      let message = "";
      const read = (headers: http2.IncomingHttpHeaders) => {
        const code = headers["grpc-status"];
        if (code === undefined) return;
        status = String(code);
        message = decodeURIComponent(String(headers["grpc-message"] ?? ""));
      };
      stream.on("response", read);
      stream.on("trailers", read);
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("error", () => {}); // reported by close, below
      stream.on("close", () => {
        if (status === "0") {
          resolve(Buffer.concat(chunks).subarray(5));
        } else {
          reject(new RawCallError(status === undefined ? -1 : Number(status), message || "closed"));
        }
      });
      stream.end(body);
    });
  }

  /** Closes the connection. */
  close(): void {
    this.#session?.close();
    this.#session = undefined;
  }
}
