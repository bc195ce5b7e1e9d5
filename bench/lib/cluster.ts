/**
 * A fresh etcd with default settings and Shard Manager instances on it, all
 * owned by a {@linkcode Scope}.
 *
 * @module
 */
import { type Etcd, type EtcdOptions, startEtcd, uniquePrefix } from "../../tests/support/etcd.ts";
import { testConfigYaml } from "../../tests/support/service.ts";
import type { Scope } from "./scope.ts";
import { type ServiceProcess, startService } from "./service.ts";

/** Options of {@linkcode startCluster}. */
export interface ClusterOptions {
  /** Namespaces, as YAML objects. */
  readonly namespaces: readonly Record<string, unknown>[];
  /** `shardDistribution.process` settings. */
  readonly process?: Record<string, string | number>;
  /** `shardDistribution.election` settings. */
  readonly election?: Record<string, string>;
  /** The leader's lease. @default {"5s"} (the service's default) */
  readonly electionTTL?: string;
  /** Instances to start now. @default {1} */
  readonly instances?: number;
  /** Profile the instances' CPU into this directory. */
  readonly cpuProfDir?: string;
  /** etcd flags (none by default: etcd's own defaults). */
  readonly etcd?: EtcdOptions;
  /** Use this etcd (with a fresh key prefix) instead of starting one. */
  readonly existingEtcd?: Etcd;
  /** Open the first instance's V8 inspector on this port. */
  readonly inspectPort?: number;
  /**
   * Keep the service's default `coldStartWait` for namespaces that do not set
   * it (otherwise `0s`, see `testConfigYaml`). @default {false}
   */
  readonly serviceColdStartWait?: boolean;
}

/** Per-instance options of {@linkcode Cluster.startInstance}. */
export interface InstanceOptions {
  /** Write a CPU profile here at exit. */
  readonly cpuProfDir?: string;
  /** Listen on this gRPC address. */
  readonly grpcAddress?: string;
  /** Open the V8 inspector on this port. */
  readonly inspectPort?: number;
}

/** What {@linkcode startCluster} started. */
export interface Cluster {
  /** The etcd. */
  readonly etcd: Etcd;
  /** Its client endpoint, `host:port`. */
  readonly endpoint: string;
  /** The configuration every instance runs. */
  readonly yaml: string;
  /** Instances started so far. */
  readonly services: ServiceProcess[];
  /** Starts one more instance; `options` as for {@linkcode startService}. */
  startInstance(
    instanceId: string,
    options?: InstanceOptions,
  ): Promise<ServiceProcess>;
}

/**
 * Starts etcd and `instances` service processes.
 *
 * @example
 * ```ts ignore
 * import { Scope } from "./scope.ts";
 * import { startCluster } from "./cluster.ts";
 *
 * await using scope = new Scope();
 * const cluster = await startCluster(scope, {
 *   namespaces: [{ name: "bench", type: "fixed", shardNum: 1000 }],
 * });
 * ```
 */
export async function startCluster(scope: Scope, options: ClusterOptions): Promise<Cluster> {
  const etcd = options.existingEtcd ?? scope.adopt(await startEtcd(options.etcd ?? {}));
  const yaml = testConfigYaml({
    endpoints: etcd.endpoints,
    prefix: uniquePrefix("bench"),
    namespaces: options.namespaces,
    ...(options.process ? { process: options.process } : {}),
    ...(options.election ? { election: options.election } : {}),
    electionTTL: options.electionTTL ?? "5s",
    ...(options.serviceColdStartWait ? { serviceColdStartWait: true } : {}),
  });
  const services: ServiceProcess[] = [];
  const startInstance = async (instanceId: string, extra: InstanceOptions = {}) => {
    const cpuProfDir = extra.cpuProfDir ?? options.cpuProfDir;
    const service = scope.adopt(
      await startService(yaml, {
        instanceId,
        ...(cpuProfDir ? { cpuProfDir } : {}),
        ...(extra.grpcAddress ? { grpcAddress: extra.grpcAddress } : {}),
        ...(extra.inspectPort ? { inspectPort: extra.inspectPort } : {}),
      }),
    );
    services.push(service);
    return service;
  };
  for (let i = 0; i < (options.instances ?? 1); i++) {
    const inspectPort = i === 0 ? options.inspectPort : undefined;
    await startInstance(`bench-${i + 1}`, inspectPort === undefined ? {} : { inspectPort });
  }
  return { etcd, endpoint: etcd.endpoints[0]!, yaml, services, startInstance };
}

/** The key prefix of the main store in `yaml` (as written by `testConfigYaml`). */
export function storePrefix(yaml: string): string {
  const match = /prefix: "([^"]+\/store)"/.exec(yaml);
  if (!match) throw new Error("No store prefix in the configuration");
  return match[1]!;
}
