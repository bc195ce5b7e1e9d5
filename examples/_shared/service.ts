/**
 * Starts a Shard Manager for an example: `src/main.ts` as a child process,
 * on the embedded store in a temporary directory, listening on free loopback
 * ports. No etcd needed. The example talks to it over gRPC only; nothing
 * here imports the service's code.
 *
 * @module
 */

/** A namespace as written in the service's YAML. */
export interface NamespaceConfig {
  /** The namespace's name. */
  readonly name: string;
  /** `fixed` (shards `0..shardNum-1`) or `ephemeral` (shards created on demand). */
  readonly type: "fixed" | "ephemeral";
  /** Number of shards of a fixed namespace. */
  readonly shardNum?: number;
  /** `greedy` (by reported load) or `naive` (by shard count). @default {"greedy"} */
  readonly loadBalancer?: "greedy" | "naive";
  /**
   * Balancing moves per pass in this namespace; 0 moves a shard only when its
   * owner dies or drains (new shards are still placed). @default {the service's}
   */
  readonly maxMovesPerPass?: number;
  /** `cells`: tenants placed once on the least-loaded cell, never balanced (ephemeral only). */
  readonly mode?: "cells";
  /** `exclusive`: a shard is stopped on its old owner before its new one starts it. @default {"available"} */
  readonly ownership?: "available" | "exclusive";
}

/** Options of {@linkcode startService}. */
export interface ServiceOptions {
  /** The namespaces to configure. */
  readonly namespaces: readonly NamespaceConfig[];
  /** An executor unheard for longer loses its shards. @default {"2s"} */
  readonly heartbeatTTL?: string;
  /** Longest time between rebalance passes. @default {"500ms"} */
  readonly period?: string;
  /** Called with every error the service logs (a JSON line). @default {ignored} */
  readonly onError?: (line: string) => void;
}

/** A running service. */
export interface Service extends AsyncDisposable {
  /** Its gRPC address, `127.0.0.1:port`. */
  readonly address: string;
  /** Its process id. */
  readonly pid: number;
  /** Stops it (SIGTERM: graceful; SIGKILL: a crash) and removes its data directory. */
  stop(signal?: Deno.Signal): Promise<void>;
}

const MAIN = new URL("../../src/main.ts", import.meta.url);
const REPO = new URL("../../", import.meta.url);

/**
 * Writes a configuration for `options` and starts the service with it.
 * Resolves once it listens; rejects if it exits or takes 30 s.
 *
 * @example
 * ```ts ignore
 * await using service = await startService({
 *   namespaces: [{ name: "jobs", type: "fixed", shardNum: 4 }],
 * });
 * console.log(service.address);
 * ```
 */
export async function startService(options: ServiceOptions): Promise<Service> {
  const dir = await Deno.makeTempDir({ prefix: "sm-example-" });
  const config = `${dir}/config.yaml`;
  await Deno.writeTextFile(config, configYaml(options, `${dir}/data`));
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "--v8-flags=--heap-growing-percent=50", MAIN.pathname, "--config", config],
    cwd: REPO.pathname,
    stdin: "null",
    stdout: "null",
    stderr: "piped",
  }).spawn();
  const listening = Promise.withResolvers<string>();
  let early = "";
  const reading = (async () => {
    let buffer = "";
    for await (const chunk of child.stderr.pipeThrough(new TextDecoderStream())) {
      buffer += chunk;
      const lines = buffer.split("\n");
      buffer = lines.pop() ?? "";
      for (const line of lines) {
        if (early.length < 20_000) early += line + "\n";
        const match = line.match(/"msg":"listening","address":"([^"]+)"/);
        if (match) listening.resolve(match[1]!);
        if (line.includes('"level":"error"')) options.onError?.(line);
      }
    }
    listening.reject(new Error(`The service exited before listening:\n${early}`));
  })();
  const timer = setTimeout(
    () => listening.reject(new Error(`The service did not start in 30 s:\n${early}`)),
    30_000,
  );
  let stopped: Promise<void> | undefined;
  const stop = (signal: Deno.Signal = "SIGTERM") =>
    stopped ??= (async () => {
      try {
        child.kill(signal);
      } catch { /* already exited */ }
      await child.status;
      await reading;
      await Deno.remove(dir, { recursive: true }).catch(() => {});
    })();
  try {
    const address = await listening.promise;
    return { address, pid: child.pid, stop, [Symbol.asyncDispose]: () => stop() };
  } catch (error) {
    await stop("SIGKILL");
    throw error;
  } finally {
    clearTimeout(timer);
  }
}

function configYaml(options: ServiceOptions, dataDir: string): string {
  const namespaces = options.namespaces.map((n) => `    - ${JSON.stringify(n)}`).join("\n");
  return `shardDistribution:
  namespaces:
${namespaces}
  embedded:
    dataDir: ${JSON.stringify(dataDir)}
  process:
    period: ${options.period ?? "500ms"}
    heartbeatTTL: ${options.heartbeatTTL ?? "2s"}
    rebalanceCooldown: 50ms
server:
  grpcAddress: 127.0.0.1:0
  httpAddress: 127.0.0.1:0
log:
  level: info
`;
}
