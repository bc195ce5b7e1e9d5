/**
 * What a run leaves in etcd, sampled with `etcdctl` (Debian `etcd-client`):
 * the database size (allocated, and in use: etcd reuses freed pages, so the
 * in-use figure is the one that shows growth) and the number of keys under
 * the run's prefix.
 *
 * @module
 */

/** etcd's state at one moment. */
export interface EtcdSample {
  /** The largest `dbSize` among the members that answered, in bytes. */
  readonly dbBytes: number;
  /** The largest `dbSizeInUse` among the members that answered, in bytes. */
  readonly dbInUseBytes: number;
  /** Keys under the prefix. */
  readonly keys: number;
}

interface EndpointStatus {
  readonly Status?: { readonly dbSize?: number; readonly dbSizeInUse?: number };
}

async function etcdctl(args: readonly string[]): Promise<string> {
  const output = await new Deno.Command("etcdctl", {
    args: [...args],
    env: { ETCDCTL_API: "3" },
    stdout: "piped",
    stderr: "piped",
  }).output();
  if (!output.success) {
    throw new Error(`etcdctl ${args.join(" ")}: ${new TextDecoder().decode(output.stderr).trim()}`);
  }
  return new TextDecoder().decode(output.stdout);
}

/**
 * Samples etcd at `endpoints`: sizes from every member that answers within
 * 2 s, keys under `prefix` (a linearizable read, so it needs a quorum).
 * Returns `undefined` when etcd cannot answer (for example during an injected
 * quorum loss): a missing sample, not a zero.
 */
export async function sampleEtcd(
  endpoints: readonly string[],
  prefix: string,
): Promise<EtcdSample | undefined> {
  try {
    const status = JSON.parse(
      await etcdctl([
        `--endpoints=${endpoints.join(",")}`,
        "--command-timeout=2s",
        "endpoint",
        "status",
        "-w",
        "json",
      ]),
    ) as EndpointStatus[];
    const count = JSON.parse(
      await etcdctl([
        `--endpoints=${endpoints.join(",")}`,
        "--command-timeout=2s",
        "get",
        "--prefix",
        prefix,
        // etcd 3.4's etcdctl has no --count-only; a range's count is its total, whatever the limit.
        "--keys-only",
        "--limit=1",
        "-w",
        "json",
      ]),
    ) as { count?: number };
    return {
      dbBytes: Math.max(0, ...status.map((s) => s.Status?.dbSize ?? 0)),
      dbInUseBytes: Math.max(0, ...status.map((s) => s.Status?.dbSizeInUse ?? 0)),
      keys: count.count ?? 0,
    };
  } catch {
    return undefined;
  }
}

/**
 * A key's shape: the part after `prefix` with every run of digits written
 * `N`, so that keys of one kind (`store/history/soak-tmp-N/N-service-N.N-N`,
 * `store/ns/chaos-x/assignment/log/N`) count together and a soak's growth
 * names the kind of key that grew.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { keyShape } from "./etcd_stats.ts";
 *
 * assert.equal(keyShape("/p/", "/p/ns/chaos-x/assignment/log/0000000000000012"), "ns/chaos-x/assignment/log/N");
 * assert.equal(keyShape("/p/", "/p/history/soak-tmp-7/123-service-0.1-4"), "history/soak-tmp-N/N-service-N.N-N");
 * ```
 */
export function keyShape(prefix: string, key: string): string {
  return key.slice(prefix.length).replace(/\d+/g, "N");
}

/** Counts of the keys under `prefix` by {@linkcode keyShape}; undefined when etcd cannot answer. */
export async function keyCensus(
  endpoints: readonly string[],
  prefix: string,
): Promise<Record<string, number> | undefined> {
  try {
    const text = await etcdctl([
      `--endpoints=${endpoints.join(",")}`,
      "--command-timeout=5s",
      "get",
      "--prefix",
      prefix,
      "--keys-only",
    ]);
    const census: Record<string, number> = {};
    for (const key of text.split("\n")) {
      if (key.trim() === "") continue;
      const shape = keyShape(prefix, key);
      census[shape] = (census[shape] ?? 0) + 1;
    }
    return census;
  } catch {
    return undefined;
  }
}
