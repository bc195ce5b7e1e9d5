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
  static async start(port: number): Promise<HeapSampler> {
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
    await sampler.#send("HeapProfiler.startSampling", { samplingInterval: 64 * 1024 });
    return sampler;
  }

  /** Stops sampling; returns the `top` allocation sites by live bytes, and closes. */
  async stop(top = 10): Promise<HeapSite[]> {
    await this.#send("HeapProfiler.collectGarbage");
    const result = await this.#send("HeapProfiler.stopSampling") as {
      profile: { head: SamplingNode };
    };
    this.#socket.close();
    const bytes = new Map<string, number>();
    const visit = (node: SamplingNode) => {
      const { functionName, url, lineNumber } = node.callFrame;
      const file = url.replace(/^.*\/registry\.npmjs\.org\//, "npm:").replace(/^.*\/(src\/)/, "$1");
      const where = `${functionName || "(anonymous)"} (${file || "native"}:${lineNumber + 1})`;
      if (node.selfSize > 0) bytes.set(where, (bytes.get(where) ?? 0) + node.selfSize);
      for (const child of node.children) visit(child);
    };
    visit(result.profile.head);
    return [...bytes].sort((a, b) => b[1] - a[1]).slice(0, top)
      .map(([where, b]) => ({ where, bytes: b }));
  }

  #send(method: string, params: Record<string, unknown> = {}): Promise<unknown> {
    const id = this.#nextId++;
    return new Promise((resolve) => {
      this.#pending.set(id, resolve);
      this.#socket.send(JSON.stringify({ id, method, params }));
    });
  }
}
