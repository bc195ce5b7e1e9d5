/**
 * A loopback TCP proxy the chaos harness controls: `cut()` drops every
 * connection through it and refuses new ones until `restore()`.
 *
 * @module
 */

/** Where a {@linkcode TcpProxy} listens and what it dials. */
export interface TcpProxyHosts {
  /** The address to listen on. @default {"127.0.0.1"} */
  readonly listen?: string;
  /** The address of the target. @default {"127.0.0.1"} */
  readonly target?: string;
}

/** A running proxy from `address` to `<target host>:<target>`. */
export class TcpProxy implements AsyncDisposable {
  readonly #listener: Deno.TcpListener;
  readonly #target: number;
  readonly #targetHost: string;
  readonly #pairs = new Set<[Deno.TcpConn, Deno.TcpConn]>();
  readonly #accepting: Promise<void>;
  #cut = false;
  #closed = false;

  /**
   * Listens on `<hosts.listen>:<port>` (0: any free port) and forwards to port `target` of `hosts.target` (both default to 127.0.0.1).
   *
   * @example
   * ```ts
   * import assert from "node:assert/strict";
   * import { TcpProxy } from "./tcp_proxy.ts";
   *
   * await using proxy = new TcpProxy(7943); // nothing is dialled until a client connects
   * assert.match(proxy.address, /^127\.0\.0\.1:\d+$/);
   * proxy.cut(); // clients through proxy.address lose the service
   * assert.equal(proxy.isCut, true);
   * proxy.restore();
   * assert.equal(proxy.isCut, false);
   * ```
   */
  constructor(target: number, port = 0, hosts: TcpProxyHosts = {}) {
    if (!Number.isInteger(target) || target <= 0 || target > 65535) {
      throw new RangeError(`target must be a TCP port, got ${target}`);
    }
    this.#target = target;
    this.#targetHost = hosts.target ?? "127.0.0.1";
    this.#listener = Deno.listen({ hostname: hosts.listen ?? "127.0.0.1", port });
    this.#accepting = this.#accept();
  }

  /** `<listen host>:<port>` to connect to. */
  get address(): string {
    return `${this.#listener.addr.hostname}:${this.#listener.addr.port}`;
  }

  /** Whether connections are being refused. */
  get isCut(): boolean {
    return this.#cut;
  }

  /** Drops every open connection and refuses new ones. */
  cut(): void {
    this.#cut = true;
    for (const pair of this.#pairs) this.#drop(pair);
  }

  /** Lets connections through again. */
  restore(): void {
    this.#cut = false;
  }

  /** Stops listening and drops every connection. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.cut();
    this.#listener.close();
    await this.#accepting;
  }

  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }

  async #accept(): Promise<void> {
    while (!this.#closed) {
      let client: Deno.TcpConn;
      try {
        client = await this.#listener.accept();
      } catch {
        return;
      }
      if (this.#cut) {
        client.close();
        continue;
      }
      void this.#forward(client);
    }
  }

  async #forward(client: Deno.TcpConn): Promise<void> {
    let server: Deno.TcpConn;
    try {
      server = await Deno.connect({ hostname: this.#targetHost, port: this.#target });
    } catch {
      client.close();
      return;
    }
    if (this.#cut) {
      client.close();
      server.close();
      return;
    }
    const pair: [Deno.TcpConn, Deno.TcpConn] = [client, server];
    this.#pairs.add(pair);
    await Promise.race([
      pump(client, server),
      pump(server, client),
    ]);
    this.#drop(pair);
  }

  #drop(pair: [Deno.TcpConn, Deno.TcpConn]): void {
    if (!this.#pairs.delete(pair)) return;
    for (const conn of pair) {
      try {
        conn.close();
      } catch { /* already closed */ }
    }
  }
}

async function pump(from: Deno.TcpConn, to: Deno.TcpConn): Promise<void> {
  const buffer = new Uint8Array(64 * 1024);
  try {
    for (;;) {
      const n = await from.read(buffer);
      if (n === null) return;
      let written = 0;
      while (written < n) written += await to.write(buffer.subarray(written, n));
    }
  } catch {
    // A closed side ends the pair.
  }
}
