/**
 * Where the processes of a chaos cluster live on the network: all on
 * loopback (the default everywhere), or each etcd member, service instance
 * and executor process in a network namespace of its own (`netns.ts`), so
 * that the harness can cut and thin real links with nftables (`nft.ts`).
 * Spectators and the harness itself (with its TCP proxies, which listen on the
 * bridge's address) stay in the root namespace.
 *
 * @module
 */
import { NetLab, type NetNode, netnsUnsupported } from "./netns.ts";

/** How the cluster is networked: `auto` is `netns` where namespaces can be made. */
export type NetworkMode = "auto" | "netns" | "loopback";

/** The network of one chaos cluster. */
export interface ClusterNetwork {
  readonly mode: "netns" | "loopback";
  /** Why `auto` fell back to loopback, if it did. */
  readonly fallbackReason?: string;
  /** Where the harness's TCP proxies listen (the bridge, or loopback). */
  readonly proxyHost: string;
  /** The namespaces, in netns mode: index i of each list is process i. */
  readonly nodes?: {
    readonly etcd: readonly NetNode[];
    readonly services: readonly NetNode[];
    readonly executors: readonly NetNode[];
  };
  /** The host etcd member `i` listens on. */
  etcdHost(i: number): string;
  /** The host service instance `i` listens on. */
  serviceHost(i: number): string;
  /** Wraps the command of a process so that it runs in its node (loopback: unchanged). */
  wrap(role: "etcd" | "services" | "executors", i: number, command: readonly string[]): string[];
  /** Removes the namespaces (after the processes in them stopped). */
  close(): Promise<void>;
}

/** How many of each process the network makes room for. */
export interface NetworkSize {
  readonly etcd: number;
  readonly services: number;
  readonly executors: number;
}

const LOOPBACK = "127.0.0.1";

/** The loopback network: every process on 127.0.0.1, commands unchanged. */
export function loopbackNetwork(fallbackReason?: string): ClusterNetwork {
  return {
    mode: "loopback",
    ...(fallbackReason === undefined ? {} : { fallbackReason }),
    proxyHost: LOOPBACK,
    etcdHost: () => LOOPBACK,
    serviceHost: () => LOOPBACK,
    wrap: (_role, _i, command) => [...command],
    close: () => Promise.resolve(),
  };
}

/**
 * The network of `mode`: `loopback`, `netns` (throws when namespaces cannot be
 * made), or `auto` (netns, else loopback with the reason).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { clusterNetwork } from "./cluster_network.ts";
 *
 * const network = await clusterNetwork("loopback", { etcd: 3, services: 3, executors: 3 });
 * assert.equal(network.serviceHost(0), "127.0.0.1");
 * assert.deepEqual(network.wrap("services", 0, ["deno", "run"]), ["deno", "run"]);
 * await network.close();
 * ```
 */
export async function clusterNetwork(
  mode: NetworkMode,
  size: NetworkSize,
): Promise<ClusterNetwork> {
  if (!["auto", "netns", "loopback"].includes(mode)) {
    throw new RangeError(`network must be auto, netns or loopback, got ${JSON.stringify(mode)}`);
  }
  if (mode === "loopback") return loopbackNetwork();
  const unsupported = await netnsUnsupported();
  if (unsupported !== undefined) {
    if (mode === "netns") throw new Error(`Cannot run in network namespaces: ${unsupported}`);
    return loopbackNetwork(unsupported);
  }
  const lab = await NetLab.create();
  try {
    const make = async (role: string, count: number, base: number) => {
      const nodes: NetNode[] = [];
      for (let i = 0; i < count; i++) nodes.push(await lab.addNode(`${role}-${i}`, base + i));
      return nodes;
    };
    const nodes = {
      etcd: await make("etcd", size.etcd, 10),
      services: await make("service", size.services, 40),
      executors: await make("exec", size.executors, 70),
    };
    const node = (role: keyof typeof nodes, i: number) => {
      const found = nodes[role][i];
      if (found === undefined) throw new RangeError(`No ${role} node ${i}`);
      return found;
    };
    return {
      mode: "netns",
      proxyHost: lab.gateway,
      nodes,
      etcdHost: (i) => node("etcd", i).address,
      serviceHost: (i) => node("services", i).address,
      wrap: (role, i, command) => lab.command(node(role, i), command),
      close: () => lab.close(),
    };
  } catch (error) {
    await lab.close();
    throw error;
  }
}
