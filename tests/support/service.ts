/**
 * Running Shard Manager instances in tests: in process (fast) or as a child
 * process (so it can be killed with SIGKILL or SIGTERM).
 *
 * @module
 */
import { type RunningInstance, startInstance, type StartOptions } from "../../src/app.ts";
import { parseConfig } from "../../src/config/mod.ts";
import { jsonLogger, silentLogger } from "../../src/core/logger.ts";
import { HEAP_GROWTH_V8_FLAG } from "../../src/heap_growth.ts";
import { reportChildCrash } from "./child_crash.ts";
import { denoBinary } from "./deno_bin.ts";

/** Knobs of a test configuration. */
export interface TestConfigOptions {
  /** etcd endpoints. */
  readonly endpoints: readonly string[];
  /** etcd endpoints of the leader store. @default {endpoints} */
  readonly leaderEndpoints?: readonly string[];
  /** Key prefix unique to the test. */
  readonly prefix: string;
  /** Namespaces, as YAML objects. */
  readonly namespaces: readonly Record<string, unknown>[];
  /** Durations and numbers under `process`. */
  readonly process?: Record<string, string | number>;
  /** Durations under `election`. */
  readonly election?: Record<string, string>;
  /** The leader's lease. @default {"2s"} */
  readonly electionTTL?: string;
  /** More keys of both stores' `storageParams`, e.g. `tls` and `auth`. @default {{}} */
  readonly storageParams?: Record<string, unknown>;
  /** A top-level `security` section. @default {undefined} none */
  readonly security?: Record<string, unknown>;
  /** `limits` settings. */
  readonly limits?: Record<string, unknown>;
  /**
   * Keep the service's default `coldStartWait` (a new namespace waits for its
   * executors to stop joining before it places) for namespaces that do not
   * set it. Otherwise they get `0s` and place at once, as tests expect.
   * @default {false}
   */
  readonly serviceColdStartWait?: boolean;
}

/**
 * `namespace` with `coldStartWait: 0s` unless it sets it, is a cells namespace
 * (which has no such setting) or `keep` is true.
 */
function withoutColdStartWait(
  namespace: Record<string, unknown>,
  keep: boolean | undefined,
): Record<string, unknown> {
  if (keep || "coldStartWait" in namespace || namespace.mode === "cells") return namespace;
  if (namespace.type === "range") return namespace; // no cold-start wait to set
  return { ...namespace, coldStartWait: "0s" };
}

/** A YAML configuration for tests, with quick timings. */
export function testConfigYaml(options: TestConfigOptions): string {
  const store = (prefix: string, extra = "", endpoints = options.endpoints) => `
    storageParams:
      endpoints: ${JSON.stringify(endpoints)}
      dialTimeout: 2s
      prefix: ${JSON.stringify(prefix)}${extra}${
    Object.entries(options.storageParams ?? {}).map(([k, v]) =>
      `\n      ${k}: ${JSON.stringify(v)}`
    )
      .join("")
  }`;
  const lines = (obj: Record<string, unknown>, indent: string) =>
    Object.entries(obj).map(([k, v]) => `${indent}${k}: ${JSON.stringify(v)}`).join("\n");
  return `shardDistribution:
  election:
${
    lines({
      leaderPeriod: "60s",
      maxRandomDelay: "100ms",
      failedElectionCooldown: "200ms",
      ...options.election,
    }, "    ")
  }
  namespaces:
${
    options.namespaces.map((n) =>
      `    - ${JSON.stringify(withoutColdStartWait(n, options.serviceColdStartWait))}`
    ).join("\n")
  }
  leaderStore:${
    store(
      `${options.prefix}/leader`,
      `\n      electionTTL: ${options.electionTTL ?? "2s"}`,
      options.leaderEndpoints ?? options.endpoints,
    )
  }
  store:${store(`${options.prefix}/store`)}
  process:
${
    lines(
      { period: "500ms", heartbeatTTL: "2s", rebalanceCooldown: "50ms", ...options.process },
      "    ",
    )
  }
server:
  grpcAddress: 127.0.0.1:0
  httpAddress: 127.0.0.1:0
log:
  level: warn
${options.security ? `security: ${JSON.stringify(options.security)}\n` : ""}${
    options.limits ? `limits: ${JSON.stringify(options.limits)}\n` : ""
  }`;
}

/** Starts an instance inside the test process (`options`: more of `startInstance`'s). */
export function startInProcess(
  yaml: string,
  instanceId?: string,
  options: Omit<StartOptions, "instanceId"> = {},
): Promise<RunningInstance> {
  const config = parseConfig(yaml, "test.yaml");
  const logger = Deno.env.get("TEST_LOGS") ? jsonLogger("debug", { instanceId }) : silentLogger;
  return startInstance(config, logger, instanceId ? { ...options, instanceId } : options);
}

/** An instance running as a child process. */
export interface ServiceProcess extends AsyncDisposable {
  /** The gRPC address it listens on. */
  readonly address: string;
  /** The HTTP address (metrics, health, dashboard) it listens on. */
  readonly httpAddress: string;
  /** Its instance id. */
  readonly instanceId: string;
  /** The configuration file it was started with (rewrite it, then send SIGHUP). */
  readonly configPath: string;
  /** Everything it logged so far. */
  logs(): string;
  /** Its exit status once it has exited (by itself or killed); undefined while it runs. */
  exited(): Deno.CommandStatus | undefined;
  /** Sends a signal and waits for the process to exit. */
  kill(signal?: Deno.Signal): Promise<Deno.CommandStatus>;
  /** Sends a signal that does not stop it (e.g. SIGHUP). */
  signal(signal: Deno.Signal): void;
}

const MAIN = new URL("../../src/main.ts", import.meta.url).pathname;

/** Options of {@linkcode startProcess}. */
export interface StartProcessOptions {
  /**
   * The service's entry point: another release's `src/main.ts` (from a git
   * worktree) runs that release, offline (`--cached-only`).
   * @default {this repository's src/main.ts}
   */
  readonly main?: string;
  /** Added to its environment (e.g. libfaketime's). @default {none} */
  readonly env?: Readonly<Record<string, string>>;
}

/**
 * Starts `src/main.ts` with `yaml` as its configuration and waits until it
 * listens; `options.env` adds to its environment (e.g. libfaketime's).
 */
export async function startProcess(
  yaml: string,
  instanceId: string,
  options: StartProcessOptions = {},
): Promise<ServiceProcess> {
  const dir = await Deno.makeTempDir({ prefix: "sm-service-" });
  const configPath = `${dir}/config.yaml`;
  await Deno.writeTextFile(configPath, yaml.replace("level: warn", "level: info"));
  const args = [
    "run",
    "-A",
    `--v8-flags=${HEAP_GROWTH_V8_FLAG}`,
    ...(options.main ? ["--cached-only", options.main] : [MAIN]),
    "--config",
    configPath,
    "--instance-id",
    instanceId,
  ];
  const child = new Deno.Command(denoBinary(), {
    args,
    ...(options.env ? { env: { ...options.env } } : {}),
    stdout: "null",
    stderr: "piped",
    stdin: "null",
  }).spawn();
  let text = "";
  let exitStatus: Deno.CommandStatus | undefined;
  child.status.then((s) => exitStatus = s, () => {});
  const listening = Promise.withResolvers<{ address: string; httpAddress: string }>();
  const reading = (async () => {
    for await (const chunk of child.stderr.pipeThrough(new TextDecoderStream())) {
      text += chunk;
      const match = text.match(/"msg":"listening","address":"([^"]+)","httpAddress":"([^"]+)"/);
      if (match) listening.resolve({ address: match[1]!, httpAddress: match[2]! });
    }
    listening.reject(new Error(`Service exited before listening:\n${text}`));
  })();
  Promise.all([child.status, reading]).then(
    ([status]) => reportChildCrash(`service ${instanceId}`, [denoBinary(), ...args], status, text),
    () => {},
  );
  const timer = setTimeout(
    () => listening.reject(new Error(`Service did not start:\n${text}`)),
    30_000,
  );
  let status: Promise<Deno.CommandStatus> | undefined;
  const kill = (signal: Deno.Signal = "SIGTERM") => {
    if (!status) {
      try {
        child.kill(signal);
      } catch { /* already exited */ }
      status = child.status.then(async (s) => {
        await reading;
        await Deno.remove(dir, { recursive: true }).catch(() => {});
        return s;
      });
    }
    return status;
  };
  try {
    const { address, httpAddress } = await listening.promise;
    return {
      address,
      httpAddress,
      instanceId,
      configPath,
      logs: () => text,
      exited: () => exitStatus,
      kill,
      signal: (signal) => child.kill(signal),
      [Symbol.asyncDispose]: async () => {
        await kill("SIGKILL");
      },
    };
  } catch (error) {
    await kill("SIGKILL");
    throw error;
  } finally {
    clearTimeout(timer);
  }
}
