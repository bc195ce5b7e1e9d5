/**
 * The V8 sampling heap profiler of a child process, over the inspector
 * protocol (`deno run --inspect`): which functions allocated the memory that
 * is still live when sampling stops.
 *
 * @module
 */

interface SamplingNode {
  readonly callFrame: {
    readonly functionName: string;
    readonly url: string;
    readonly lineNumber: number;
  };
  readonly selfSize: number;
  readonly children: readonly SamplingNode[];
}

/** A function's share of live sampled memory. */
export interface HeapSite {
  /** `name (file:line)`. */
  readonly where: string;
  /** Bytes attributed to it. */
  readonly bytes: number;
}

/** Where a process allocated, by origin and by site (see {@linkcode HeapSampler.stopAllocations}). */
export interface AllocationProfile {
  /** Bytes sampled in all. */
  readonly total: number;
  /** Bytes by the origin of the nearest frame with a source: `src/`, `grpc-js`, `Deno node:`... */
  readonly origins: ReadonlyMap<string, number>;
  /** The top sites by bytes allocated in them. */
  readonly sites: readonly HeapSite[];
}

/** The origin of a frame's code: this project, a package, or the runtime. */
function originOf(url: string): string {
  const npm = url.match(/registry\.npmjs\.org\/((?:@[^/]+\/)?[^/]+)/);
  if (npm) return npm[1]!;
  if (url.startsWith("ext:deno_node")) return "Deno node: compat (http2, buffer, timers, events)";
  if (url.startsWith("ext:")) return "Deno runtime (ext:)";
  if (url.includes("/src/")) return "this project (src/)";
  return url === "" ? "native" : "other";
}

/** A connection to a process's inspector. */
export class HeapSampler {
  readonly #socket: WebSocket;
  #nextId = 1;
  readonly #pending = new Map<number, (result: unknown) => void>();

  private constructor(socket: WebSocket) {
    this.#socket = socket;
    socket.onmessage = (event) => {
      const message = JSON.parse(String(event.data)) as { id?: number; result?: unknown };
      if (message.id !== undefined) this.#pending.get(message.id)?.(message.result);
    };
  }

  /**
   * Connects to the inspector on `port` (loopback) and starts sampling.
   *
   * @example
   * ```ts ignore
   * import { HeapSampler } from "./heap_profile.ts";
   *
   * const sampler = await HeapSampler.start(9229);
   * const sites = await sampler.stop();
   * ```
   */
  static async start(
    port: number,
    options: {
      /** Bytes between samples. @default {65536} */
      readonly intervalBytes?: number;
      /** Keep what the GC collects too: where memory is allocated, not only what stays live. */
      readonly allocations?: boolean;
    } = {},
  ): Promise<HeapSampler> {
    const targets = await (await fetch(`http://127.0.0.1:${port}/json/list`)).json() as {
      webSocketDebuggerUrl: string;
    }[];
    const socket = new WebSocket(targets[0]!.webSocketDebuggerUrl);
    await new Promise((resolve, reject) => {
      socket.onopen = resolve;
      socket.onerror = reject;
    });
    const sampler = new HeapSampler(socket);
    await sampler.#send("HeapProfiler.enable");
    await sampler.#send("HeapProfiler.startSampling", {
      samplingInterval: options.intervalBytes ?? 64 * 1024,
      ...(options.allocations
        ? { includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true }
        : {}),
    });
    return sampler;
  }

  /** Stops sampling; returns the `top` allocation sites by live bytes, and closes. */
  async stop(top = 10): Promise<readonly HeapSite[]> {
    await this.#send("HeapProfiler.collectGarbage");
    return (await this.#finish(top)).sites;
  }

  /**
   * Stops sampling a sampler started with `allocations`; returns where the
   * memory was allocated (bytes by origin, and the `top` sites), and closes.
   */
  stopAllocations(top = 25): Promise<AllocationProfile> {
    return this.#finish(top);
  }

  async #finish(top: number): Promise<AllocationProfile> {
    const result = await this.#send("HeapProfiler.stopSampling") as {
      profile: { head: SamplingNode };
    };
    this.#socket.close();
    const bySite = new Map<string, number>();
    const origins = new Map<string, number>();
    let total = 0;
    const visit = (node: SamplingNode, origin: string) => {
      const { url } = node.callFrame;
      const own = url === "" ? origin : originOf(url);
      if (node.selfSize > 0) {
        const where = siteOf(node);
        bySite.set(where, (bySite.get(where) ?? 0) + node.selfSize);
        origins.set(own, (origins.get(own) ?? 0) + node.selfSize);
        total += node.selfSize;
      }
      for (const child of node.children) visit(child, own);
    };
    visit(result.profile.head, "native");
    const sites = [...bySite].sort((a, b) => b[1] - a[1]).slice(0, top)
      .map(([where, bytes]) => ({ where, bytes }));
    return { total, origins, sites };
  }

  #send(method: string, params: Record<string, unknown> = {}): Promise<unknown> {
    const id = this.#nextId++;
    return new Promise((resolve) => {
      this.#pending.set(id, resolve);
      this.#socket.send(JSON.stringify({ id, method, params }));
    });
  }
}

/** `name (file:line)` of a node; line numbers are of the code V8 ran (TypeScript is transpiled). */
function siteOf(node: SamplingNode): string {
  const { functionName, url, lineNumber } = node.callFrame;
  const file = url.replace(/^.*\/registry\.npmjs\.org\//, "npm:").replace(/^.*\/(src\/)/, "$1");
  return `${functionName || "(anonymous)"} (${file || "native"}:${lineNumber + 1})`;
}
