/**
 * The processes of a chaos run: a 3-member etcd cluster, service instances on
 * fixed ports, executor processes that reach the service only through the
 * harness's TCP proxies, and spectator processes. All on loopback, or (network
 * `netns`) each member, instance and executor in a network namespace of its
 * own (`cluster_network.ts`), where real links can be cut. A process that
 * dies unexpectedly is recorded as a crash and restarted, as a supervisor
 * would.
 *
 * @module
 */
import { HEAP_GROWTH_V8_FLAG } from "../../src/heap_growth.ts";
import { type EtcdCluster, startEtcdCluster } from "../support/etcd.ts";
import { denoBinary } from "../support/deno_bin.ts";
import { freePorts } from "../support/ports.ts";
import type { ChildConfig, PoisonConfig } from "./chaos_child.ts";
import { type ClusterNetwork, clusterNetwork, type NetworkMode } from "./cluster_network.ts";
import { CHAOS_TIMINGS, chaosConfigYaml } from "./config.ts";
import type { NamespaceSpec } from "./events.ts";
import type { Crash, Recorder } from "./recorder.ts";
import { type ExitInfo, Supervised, waitForPort } from "./supervised.ts";
import { TcpProxy } from "./tcp_proxy.ts";
import { steppableClockEnv } from "../support/faketime.ts";

/** What {@linkcode ChaosCluster.start} builds. */
export interface ClusterOptions {
  readonly namespaces: readonly NamespaceSpec[];
  readonly recorder: Recorder;
  /** A directory for the instances' config files. */
  readonly dir: string;
  /** @default {3} */
  readonly services?: number;
  /** @default {3} */
  readonly executors?: number;
  /** @default {1} */
  readonly spectators?: number;
  /**
   * etcd's `--auto-compaction-retention` (periodic), e.g. `"1m"`, as production runs it; a long run
   * without it keeps every revision and its database grows.
   * @default {undefined} no compaction (a chaos run is short)
   */
  readonly etcdAutoCompaction?: string;
  /** The instances' history retention (`history.maxAge`). @default {the service's default} */
  readonly historyMaxAge?: string;
  /** A poison shard the executors' processors fail with (`--scenario poison-*`). */
  readonly poison?: PoisonConfig;
  /** Called for every unexpected death, before the restart. */
  readonly onCrash?: (crash: Crash) => void;
  /** Called when a restart after a crash fails. */
  readonly onError?: (message: string) => void;
  /** Loopback, network namespaces, or namespaces where possible. @default {"loopback"} */
  readonly network?: NetworkMode;
  /**
   * Run the instances with a wall clock the harness can step (`clock-step`,
   * libfaketime reading `<dir>/clock-service-<i>`). @default {false}
   */
  readonly steppableClocks?: boolean;
}

const MAIN = new URL("../../src/main.ts", import.meta.url).pathname;
const CHILD = new URL("./chaos_child.ts", import.meta.url).pathname;
const RESTART_DELAY_MS = 500;
const START_TIMEOUT_MS = 60_000;

/** A running chaos cluster. */
export class ChaosCluster {
  readonly etcd: EtcdCluster;
  /** Where the processes live: loopback or network namespaces. */
  readonly network: ClusterNetwork;
  readonly services: Supervised[] = [];
  readonly executors: Supervised[] = [];
  readonly spectators: Supervised[] = [];
  /** Per executor, its proxies to each service. */
  readonly proxies: TcpProxy[][] = [];
  readonly servicePorts: number[];
  /** Per instance, the file its wall-clock offset is read from (with `steppableClocks`). */
  readonly clockFiles: string[] = [];
  /** The etcd key prefix of this run (`<prefix>/store`, `<prefix>/leader`). */
  readonly prefix = `chaos-${crypto.randomUUID().slice(0, 8)}`;
  /** Where the processors' fenced writes go (`fence_store.ts`). */
  get fencePrefix(): string {
    return `${this.prefix}/fence`;
  }
  readonly #options: ClusterOptions;
  #stopping = false;

  private constructor(
    network: ClusterNetwork,
    etcd: EtcdCluster,
    servicePorts: number[],
    options: ClusterOptions,
  ) {
    this.network = network;
    this.etcd = etcd;
    this.servicePorts = servicePorts;
    this.#options = options;
  }

  /** Starts everything and waits until every process is ready. */
  static async start(options: ClusterOptions): Promise<ChaosCluster> {
    const serviceCount = options.services ?? 3;
    const network = await clusterNetwork(options.network ?? "loopback", {
      etcd: 3,
      services: serviceCount,
      executors: options.executors ?? 3,
    });
    let etcd: EtcdCluster;
    try {
      etcd = await startEtcdCluster(3, {
        // As docs/operations.md asks of etcd 3.4 (3.5 does it by default): a member back from
        // isolation does not force an election with the higher term it campaigned up to.
        extraArgs: ["--pre-vote=true"],
        ...(options.etcdAutoCompaction === undefined
          ? {}
          : { autoCompactionRetention: options.etcdAutoCompaction }),
        ...(network.mode === "loopback" ? {} : {
          hosts: [0, 1, 2].map((i) => network.etcdHost(i)),
          wrap: (i: number, command: readonly string[]) => network.wrap("etcd", i, command),
        }),
      });
    } catch (error) {
      await network.close();
      throw error;
    }
    const ports = freePorts(2 * serviceCount);
    const cluster = new ChaosCluster(network, etcd, ports.slice(0, serviceCount), options);
    try {
      await cluster.#build(ports.slice(serviceCount));
    } catch (error) {
      await cluster.close();
      throw error;
    }
    return cluster;
  }

  /** The instances' gRPC addresses. */
  get serviceAddresses(): string[] {
    return this.servicePorts.map((p, i) => `${this.network.serviceHost(i)}:${p}`);
  }

  async #build(httpPorts: number[]): Promise<void> {
    const { namespaces, dir } = this.#options;
    const prefix = this.prefix;
    this.servicePorts.forEach((grpcPort, i) => {
      const path = `${dir}/service-${i}.yaml`;
      Deno.writeTextFileSync(
        path,
        chaosConfigYaml({
          endpoints: this.etcd.endpoints,
          prefix,
          host: this.network.serviceHost(i),
          grpcPort,
          httpPort: httpPorts[i]!,
          namespaces,
          historyMaxAge: this.#options.historyMaxAge,
        }),
      );
      const name = `service-${i}`;
      const clockFile = `${dir}/clock-${name}`;
      if (this.#options.steppableClocks) this.clockFiles.push(clockFile);
      this.services.push(this.#supervise({
        name,
        ...(this.#options.steppableClocks ? { env: steppableClockEnv(clockFile) } : {}),
        command: (g) =>
          this.network.wrap("services", i, [
            denoBinary(),
            "run",
            "-A",
            `--v8-flags=${HEAP_GROWTH_V8_FLAG}`,
            MAIN,
            "--config",
            path,
            "--instance-id",
            `${name}.${g}`,
          ]),
        ready: () => waitForPort(grpcPort, START_TIMEOUT_MS, this.network.serviceHost(i)),
      }));
    });
    await Promise.all(this.services.map((s) => s.start()));

    const child = (mode: string, config: ChildConfig) => [
      denoBinary(),
      "run",
      "-A",
      CHILD,
      mode,
      JSON.stringify(config),
    ];
    const ns = namespaces.map(({ name, ownership }) => ({ name, ownership }));
    const common = {
      namespaces: ns,
      heartbeatIntervalMs: CHAOS_TIMINGS.heartbeatIntervalMs,
      heartbeatTimeoutMs: CHAOS_TIMINGS.heartbeatTimeoutMs,
      stopAfterMs: 1_500,
    };
    for (let i = 0; i < (this.#options.executors ?? 3); i++) {
      const listen = this.network.proxyHost;
      const proxies = this.servicePorts.map((port, k) =>
        new TcpProxy(port, 0, { listen, target: this.network.serviceHost(k) })
      );
      this.proxies.push(proxies);
      const name = `exec-${i}`;
      this.executors.push(this.#supervise({
        name,
        command: (generation) =>
          this.network.wrap(
            "executors",
            i,
            child("executor", {
              process: name,
              generation,
              addresses: proxies.map((p) => p.address),
              ...common,
              // A mixed fleet: every other executor prepares shards before it takes them over.
              ...(i % 2 === 1 ? { prepareMs: 200 } : {}),
              ...(this.#options.poison ? { poison: this.#options.poison } : {}),
              fence: { endpoints: this.etcd.endpoints, prefix: this.fencePrefix },
            }),
          ),
        onLine: (line) => this.#options.recorder.addLine(line),
        ready: (p) => p.waitLine((l) => l.includes('"type":"ready"'), START_TIMEOUT_MS),
      }));
    }
    for (let i = 0; i < (this.#options.spectators ?? 1); i++) {
      const name = `spectator-${i}`;
      this.spectators.push(this.#supervise({
        name,
        command: (generation) =>
          child("spectator", {
            process: name,
            generation,
            addresses: this.serviceAddresses,
            ...common,
          }),
        onLine: (line) => this.#options.recorder.addLine(line),
        ready: (p) => p.waitLine((l) => l.includes('"type":"ready"'), START_TIMEOUT_MS),
      }));
    }
    await Promise.all([...this.executors, ...this.spectators].map((p) => p.start()));
  }

  #supervise(options: Omit<ConstructorParameters<typeof Supervised>[0], "onExit">): Supervised {
    const process: Supervised = new Supervised({
      ...options,
      onExit: (info) => this.#exited(process, info),
    });
    return process;
  }

  #exited(process: Supervised, info: ExitInfo): void {
    const crash = this.#options.recorder.exited(info);
    if (crash === undefined || this.#stopping) return;
    this.#options.onCrash?.(crash);
    void this.#restart(process, 1);
  }

  async #restart(process: Supervised, attempt: number): Promise<void> {
    await new Promise((resolve) => setTimeout(resolve, RESTART_DELAY_MS * attempt));
    if (this.#stopping || process.running) return;
    try {
      await process.start();
    } catch (error) {
      this.#options.onError?.(`restart of ${process.name} failed (attempt ${attempt}): ${error}`);
      if (attempt < 5 && !process.running) await this.#restart(process, attempt + 1);
    }
  }

  /** Stops every process: SDK children gracefully, then instances, then etcd. */
  async close(): Promise<void> {
    this.#stopping = true;
    await Promise.all([...this.executors, ...this.spectators].map((p) => p.kill("SIGTERM", 8_000)));
    await Promise.all(this.services.map((p) => p.kill("SIGTERM", 5_000)));
    for (const proxies of this.proxies) await Promise.all(proxies.map((p) => p.close()));
    await this.etcd.close();
    await this.network.close();
  }
}
