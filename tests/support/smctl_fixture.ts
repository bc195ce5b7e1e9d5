/**
 * A small Shard Manager for smctl's integration tests: a real etcd, one
 * in-process instance, and simulated executors with `hostname` metadata.
 *
 * @module
 */
import type { RunningInstance } from "../../src/app.ts";
import { type Etcd, startEtcd, uniquePrefix } from "./etcd.ts";
import { type Clients, connect } from "./grpc_clients.ts";
import { eventually, runExecutors, type SimExecutor } from "./executors.ts";
import { startInProcess, testConfigYaml } from "./service.ts";
import {
  smctl,
  type SmctlOptions,
  type SmctlProcess,
  type SmctlResult,
  spawnSmctl,
} from "./smctl.ts";

/** A running test setup; dispose it to stop everything. */
export interface SmctlFixture extends AsyncDisposable {
  /** The configuration every instance of the setup uses. */
  readonly yaml: string;
  /** The etcd. */
  readonly etcd: Etcd;
  /** The instance smctl talks to. */
  readonly instance: RunningInstance;
  /** Its gRPC address. */
  readonly address: string;
  /** gRPC clients of the instance. */
  readonly clients: Clients;
  /** The executors started so far. */
  readonly executors: SimExecutor[];
  /** Starts more executors (metadata: `hostname=worker-<id>` unless given). */
  addExecutors(ids: readonly string[], metadata?: Record<string, string>): SimExecutor[];
  /** Runs smctl against the instance (`--address` is added; `-n` is not). */
  run(args: readonly string[], options?: SmctlOptions): Promise<SmctlResult>;
  /** Starts smctl in the background against the instance. */
  spawn(args: readonly string[], options?: SmctlOptions): SmctlProcess;
}

/** Options of {@linkcode startSmctlFixture}. */
export interface FixtureOptions {
  /** Namespaces. @default {[fixed "ns" with 12 shards, ephemeral "eph"]} */
  readonly namespaces?: readonly Record<string, unknown>[];
  /** Executors to start in "ns". @default {["a", "b", "c"]} */
  readonly executors?: readonly string[];
  /** Instance id. @default {"instance-1"} */
  readonly instanceId?: string;
}

/** Starts etcd, an instance and executors; resolves once every executor holds shards. */
export async function startSmctlFixture(
  name: string,
  options: FixtureOptions = {},
): Promise<SmctlFixture> {
  const etcd = await startEtcd();
  const yaml = testConfigYaml({
    endpoints: etcd.endpoints,
    prefix: uniquePrefix(name),
    namespaces: options.namespaces ??
      [{ name: "ns", type: "fixed", shardNum: 12 }, { name: "eph", type: "ephemeral" }],
  });
  const instance = await startInProcess(yaml, options.instanceId ?? "instance-1");
  const address = instance.server.address;
  const clients = connect(address);
  const executors: SimExecutor[] = [];
  const fixture: SmctlFixture = {
    yaml,
    etcd,
    instance,
    address,
    clients,
    executors,
    addExecutors(ids, metadata) {
      const started = runExecutors(clients, "ns", ids, {
        intervalMs: 200,
        metadata: (id) => metadata ?? { hostname: `worker-${id}`, address: `${id}.example:1234` },
      });
      executors.push(...started);
      return started;
    },
    run: (args, runOptions) => smctl(["--address", address, ...args], runOptions),
    spawn: (args, runOptions) => spawnSmctl(["--address", address, ...args], runOptions),
    async [Symbol.asyncDispose]() {
      for (const e of executors) e.stop();
      clients.close();
      await instance.stop();
      await etcd.close();
    },
  };
  try {
    const started = fixture.addExecutors(options.executors ?? ["a", "b", "c"]);
    await eventually(() => started.every((e) => e.shards.length > 0), 15_000, "shards everywhere");
  } catch (error) {
    await fixture[Symbol.asyncDispose]();
    throw error;
  }
  return fixture;
}
