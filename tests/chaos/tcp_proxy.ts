/**
 * A loopback TCP proxy the chaos harness controls: `cut()` drops every
 * connection through it and refuses new ones until `restore()`;
 * `degrade(faults)` makes the link slow, jittery and lossy (see
 * `link_faults.ts` for the model) until `heal()`. It also counts the gRPC
 * calls it carries (`stats`), from the HTTP/2 frame headers.
 *
 * @module
 */
import { H2Streams } from "./h2_streams.ts";
import { chunkFate, type LinkFaults, resolveLinkFaults } from "./link_faults.ts";

/** Options of {@linkcode TcpProxy}. */
export interface TcpProxyOptions {
  /** Random numbers in [0, 1) for the link faults. @default {Math.random} */
  readonly random?: () => number;
}

/** What a proxy counted since it started. */
export interface ProxyStats {
  /** Connections accepted and forwarded. */
  readonly connections: number;
  /** gRPC calls started through it. */
  readonly callsStarted: number;
  /** gRPC calls started and not yet ended, right now. */
  readonly callsInFlight: number;
  /** Stalls (modelled lost segments) and resets injected. */
  readonly stalls: number;
  readonly resets: number;
}

/** Most bytes read ahead of a delayed writer before reading waits. */
const MAX_QUEUED_BYTES = 1 << 20;

/** One proxied connection. */
interface Link {
  readonly client: Deno.TcpConn;
  readonly server: Deno.TcpConn;
  readonly calls: H2Streams;
  /** Nothing is written on either direction before this (`performance.now()` ms). */
  stalledUntil: number;
}

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
  readonly #links = new Set<Link>();
  readonly #accepting: Promise<void>;
  readonly #random: () => number;
  #faults: Required<LinkFaults> | undefined;
  #cut = false;
  #closed = false;
  #connections = 0;
  #callsClosed = 0;
  #stalls = 0;
  #resets = 0;

  /**
   * Listens on `<options.listen>:<port>` (0: any free port) and forwards to port `target` of
   * `options.target` (both default to 127.0.0.1).
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
   * proxy.degrade({ delayMs: 200, jitterMs: 100, lossRate: 0.05 }); // slow and lossy
   * assert.equal(proxy.faults?.delayMs, 200);
   * proxy.heal();
   * assert.equal(proxy.faults, undefined);
   * ```
   */
  constructor(target: number, port = 0, options: TcpProxyOptions & TcpProxyHosts = {}) {
    if (!Number.isInteger(target) || target <= 0 || target > 65535) {
      throw new RangeError(`target must be a TCP port, got ${target}`);
    }
    this.#target = target;
    this.#targetHost = options.target ?? "127.0.0.1";
    this.#random = options.random ?? Math.random;
    this.#listener = Deno.listen({ hostname: options.listen ?? "127.0.0.1", port });
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

  /** The link faults in force, `undefined` when the link is healthy. */
  get faults(): Required<LinkFaults> | undefined {
    return this.#faults;
  }

  /** Counters since the proxy started. */
  get stats(): ProxyStats {
    let started = this.#callsClosed;
    let inFlight = 0;
    for (const link of this.#links) {
      started += link.calls.started;
      inFlight += link.calls.inFlight;
    }
    return {
      connections: this.#connections,
      callsStarted: started,
      callsInFlight: inFlight,
      stalls: this.#stalls,
      resets: this.#resets,
    };
  }

  /** Drops every open connection and refuses new ones. */
  cut(): void {
    this.#cut = true;
    for (const link of this.#links) this.#drop(link);
  }

  /** Lets connections through again. */
  restore(): void {
    this.#cut = false;
  }

  /**
   * Delays, stalls and resets what passes from now on, on open connections
   * and new ones; throws a `RangeError` for a bad knob.
   */
  degrade(faults: LinkFaults): void {
    this.#faults = resolveLinkFaults(faults);
  }

  /** Back to a healthy link (chunks already delayed still go out in order). */
  heal(): void {
    this.#faults = undefined;
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
    const link: Link = { client, server, calls: new H2Streams(), stalledUntil: 0 };
    this.#links.add(link);
    this.#connections++;
    await Promise.race([
      this.#pump(link, client, server, (chunk) => link.calls.fromClient(chunk)),
      this.#pump(link, server, client, (chunk) => link.calls.fromServer(chunk)),
    ]);
    this.#drop(link);
  }

  /** Relays one direction, chunk by chunk, in order, each at the time its fate says. */
  async #pump(
    link: Link,
    from: Deno.TcpConn,
    to: Deno.TcpConn,
    seen: (chunk: Uint8Array) => void,
  ): Promise<void> {
    const buffer = new Uint8Array(64 * 1024);
    let tail = Promise.resolve();
    let lastRelease = 0;
    let queued = 0;
    let failed = false;
    try {
      for (;;) {
        const n = await from.read(buffer);
        if (failed) return;
        if (n === null) {
          await tail; // what was read before the end still goes out
          return;
        }
        const chunk = buffer.slice(0, n);
        seen(chunk);
        const now = performance.now();
        let releaseAt = Math.max(now, lastRelease);
        if (this.#faults) {
          const fate = chunkFate(this.#faults, {
            now,
            lastRelease,
            stalledUntil: link.stalledUntil,
          }, this.#random);
          if (fate.action === "reset") {
            this.#resets++;
            return;
          }
          if (fate.stallUntil > link.stalledUntil) this.#stalls++;
          link.stalledUntil = fate.stallUntil;
          releaseAt = fate.releaseAt;
        }
        lastRelease = releaseAt;
        queued += n;
        tail = tail.then(async () => {
          const wait = releaseAt - performance.now();
          if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
          await writeAll(to, chunk);
          queued -= n;
        }).catch(() => {
          failed = true;
        });
        // Healthy: one chunk at a time, as a plain relay. Degraded: read ahead, up to a bound.
        if (!this.#faults || queued > MAX_QUEUED_BYTES) await tail;
        if (failed) return;
      }
    } catch {
      // A closed side ends the link.
    }
  }

  #drop(link: Link): void {
    if (!this.#links.delete(link)) return;
    this.#callsClosed += link.calls.started;
    link.calls.close();
    for (const conn of [link.client, link.server]) {
      try {
        conn.close();
      } catch { /* already closed */ }
    }
  }
}

async function writeAll(to: Deno.TcpConn, chunk: Uint8Array): Promise<void> {
  let written = 0;
  while (written < chunk.length) written += await to.write(chunk.subarray(written));
}
