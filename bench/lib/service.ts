/**
 * Shard Manager instances as child processes (`src/main.ts`), with what the
 * benchmarks need beyond the test helper: the pid (for RSS and CPU), the HTTP
 * address (for `/metrics`), a listener on its JSON log lines, and optional
 * `--cpu-prof`.
 *
 * @module
 */
import { HEAP_GROWTH_V8_FLAG } from "../../src/heap_growth.ts";
import { readLines, Tail } from "./lines.ts";
import type { Scope } from "./scope.ts";
import { reportChildCrash } from "../../tests/support/child_crash.ts";
import { signalChild, spawnDeno, stopChild } from "./spawn.ts";

/** The service's entry point; `BENCH_SERVICE_MAIN` may name another checkout's (for A/B runs). */
const MAIN = Deno.env.get("BENCH_SERVICE_MAIN") === undefined
  ? new URL("../../src/main.ts", import.meta.url)
  : new URL(`file://${Deno.env.get("BENCH_SERVICE_MAIN")}`);

/** Options of {@linkcode startService}. */
export interface StartServiceOptions {
  /** The instance id. */
  readonly instanceId: string;
  /** Write a V8 CPU profile into this directory when the process exits. */
  readonly cpuProfDir?: string;
  /** How long to wait for the "listening" line. @default {60000} */
  readonly timeoutMs?: number;
  /** `--grpc-address` (a restarted instance can take its predecessor's port). */
  readonly grpcAddress?: string;
  /** Open the V8 inspector on this loopback port (`--inspect`). */
  readonly inspectPort?: number;
}

/** One log line, parsed. */
export interface LogLine {
  /** Time, ms since the epoch. */
  readonly ts: number;
  /** The message. */
  readonly msg: string;
  /** Every field. */
  readonly fields: Record<string, unknown>;
}

/** A running instance. */
export interface ServiceProcess extends AsyncDisposable {
  /** Its instance id. */
  readonly instanceId: string;
  /** Its process id. */
  readonly pid: number;
  /** gRPC address. */
  readonly address: string;
  /** HTTP address (metrics, health). */
  readonly httpAddress: string;
  /** Calls `listener` for each later log line; returns a function that stops it. */
  onLog(listener: (line: LogLine) => void): () => void;
  /** The last log lines. */
  logTail(): string;
  /** Whether it still runs. */
  readonly alive: boolean;
  /**
   * When the process exited without being asked to: its exit code and the
   * last lines it wrote that were not JSON logs (a runtime's crash message).
   */
  crash(): string | undefined;
  /** Sends `signal` (default SIGTERM) and waits for the exit (SIGKILL after 10 s). */
  stop(signal?: Deno.Signal): Promise<void>;
}

/**
 * Writes `yaml` to a temporary file and starts the service on it; resolves
 * once it logs "listening".
 *
 * @example
 * ```ts ignore
 * import { startService } from "./service.ts";
 *
 * declare const yaml: string;
 * await using service = await startService(yaml, { instanceId: "bench-1" });
 * console.log(service.address, service.httpAddress);
 * ```
 */
export async function startService(
  yaml: string,
  options: StartServiceOptions,
): Promise<ServiceProcess> {
  const dir = await Deno.makeTempDir({ prefix: "sm-bench-service-" });
  const configPath = `${dir}/config.yaml`;
  await Deno.writeTextFile(configPath, yaml.replace(/level: \w+/, "level: info"));
  const flags = options.cpuProfDir === undefined
    ? []
    : ["--cpu-prof", `--cpu-prof-dir=${options.cpuProfDir}`];
  if (options.inspectPort !== undefined) flags.push(`--inspect=127.0.0.1:${options.inspectPort}`);
  // As every launcher of the service passes it; BENCH_SERVICE_V8_FLAGS replaces it
  // (`--heap-growing-percent=0` measures V8's own choice).
  const v8 = Deno.env.get("BENCH_SERVICE_V8_FLAGS") ?? HEAP_GROWTH_V8_FLAG;
  if (v8) flags.push(`--v8-flags=${v8}`);
  const args = ["--config", configPath, "--instance-id", options.instanceId];
  if (options.grpcAddress !== undefined) args.push("--grpc-address", options.grpcAddress);
  const child = spawnDeno(MAIN, args, {
    denoFlags: flags,
    stdin: "null",
    stdout: "null",
  });
  const tail = new Tail(60);
  const listeners = new Set<(line: LogLine) => void>();
  const listening = Promise.withResolvers<{ address: string; httpAddress: string }>();
  let alive = true;
  let stopping = false;
  let crashed: string | undefined;
  const raw = new Tail(5);
  const reading = readLines(child.stderr, (text) => {
    tail.push(text);
    let fields: Record<string, unknown>;
    try {
      fields = JSON.parse(text);
    } catch {
      raw.push(text);
      return;
    }
    const line = { ts: Date.parse(String(fields.ts)), msg: String(fields.msg), fields };
    if (line.msg === "listening") {
      listening.resolve({
        address: String(fields.address),
        httpAddress: String(fields.httpAddress),
      });
    }
    for (const listener of listeners) listener(line);
  });
  const exited = Promise.all([reading, child.status]).then(async ([, status]) => {
    alive = false;
    reportChildCrash(`service ${options.instanceId}`, [MAIN.pathname, ...args], status, `${tail}`);
    listening.reject(new Error(`Service ${options.instanceId} exited before listening:\n${tail}`));
    if (!stopping) {
      crashed = `exit code ${status.code}${status.signal ? ` (${status.signal})` : ""}; last ` +
        `non-log output: ${JSON.stringify(String(raw).trim() || "(none)")}`;
      // deno-lint-ignore no-console -- a crash of the measured service must be visible
      console.error(`service ${options.instanceId} exited on its own (${crashed}):\n${tail}`);
    }
    await Deno.remove(dir, { recursive: true }).catch(() => {});
  });
  const stop = async (signal: Deno.Signal = "SIGTERM") => {
    stopping = true;
    if (alive) {
      signalChild(child, signal);
      await stopChild(child, 10_000);
    }
    await exited;
  };
  const timer = setTimeout(
    () => listening.reject(new Error(`Service ${options.instanceId} did not start:\n${tail}`)),
    options.timeoutMs ?? 60_000,
  );
  try {
    const { address, httpAddress } = await listening.promise;
    return {
      instanceId: options.instanceId,
      pid: child.pid,
      address,
      httpAddress,
      onLog(listener) {
        listeners.add(listener);
        return () => listeners.delete(listener);
      },
      logTail: () => String(tail),
      get alive() {
        return alive;
      },
      crash: () => crashed,
      stop,
      [Symbol.asyncDispose]: () => stop("SIGTERM"),
    };
  } catch (error) {
    await stop("SIGKILL");
    throw error;
  } finally {
    clearTimeout(timer);
  }
}

/** Appends `service`'s log lines (JSON, one per line) to `path` until `scope` closes. */
export async function logToFile(
  scope: Scope,
  service: ServiceProcess,
  path: string,
): Promise<void> {
  const file = await Deno.open(path, { create: true, append: true });
  const encoder = new TextEncoder();
  const unlisten = service.onLog((line) =>
    file.writeSync(encoder.encode(JSON.stringify(line.fields) + "\n"))
  );
  scope.defer(() => {
    unlisten();
    file.close();
  });
}
