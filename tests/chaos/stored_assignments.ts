/**
 * Reads a namespace's assignments straight from etcd, as the service would
 * rebuild them at start-up, optionally only up to a given change of the
 * assignment log: so a full restart can be checked to keep every committed
 * change, apart from the moves a new leader makes afterwards.
 *
 * @module
 */
import { Buffer } from "node:buffer";
import { Etcd3 } from "etcd3";
import { decodeNamespace } from "../../src/store/etcd/load_namespace.ts";
import { NamespaceKeys, parseKey, prefixEnd } from "../../src/store/etcd/keys.ts";

/** The owners of a namespace's shards at one change of its assignment log. */
export interface StoredAssignments {
  /** The last change included. */
  readonly seq: number;
  /** Shard → executor. */
  readonly owners: Readonly<Record<string, string>>;
}

/**
 * Reads `<prefix>/ns/<namespace>/` from etcd and decodes the assignments,
 * ignoring log changes after `upToSeq` (all of them when undefined). Throws
 * when a snapshot newer than `upToSeq` replaced the older changes.
 */
export async function readStoredAssignments(
  endpoints: readonly string[],
  storePrefix: string,
  namespace: string,
  upToSeq?: number,
): Promise<StoredAssignments> {
  const client = new Etcd3({ hosts: [...endpoints], dialTimeout: 2_000 });
  try {
    const keys = new NamespaceKeys(storePrefix, namespace);
    const response = await client.kv.range({
      key: Buffer.from(keys.root),
      range_end: Buffer.from(prefixEnd(keys.root)),
    });
    const kvs = response.kvs.filter((kv) => {
      if (upToSeq === undefined) return true;
      const parsed = parseKey(keys, kv.key.toString());
      if (parsed.kind === "log" || parsed.kind === "parts") return parsed.seq <= upToSeq;
      if (parsed.kind === "snapshot") {
        const seq = (JSON.parse(kv.value.toString()) as { seq?: number }).seq ?? 0;
        if (seq > upToSeq) {
          throw new Error(`A snapshot at change ${seq} replaced the log after ${upToSeq}`);
        }
      }
      return parsed.kind !== "head";
    });
    const state = decodeNamespace(keys, Number(response.header.revision), kvs);
    return {
      seq: upToSeq ?? state.assignmentSeq,
      owners: Object.fromEntries([...state.owners].sort(([a], [b]) => a.localeCompare(b))),
    };
  } finally {
    client.close();
  }
}
