/**
 * What must survive a full restart: the namespaces, the drained shards and
 * the assignments, read over gRPC from a service instance.
 *
 * @module
 */
import { call, connect } from "../support/grpc_clients.ts";
import type {
  GetDrainedShardsResponse__Output,
  GetNamespaceStateResponse__Output,
  ListNamespacesResponse__Output,
} from "../../src/wire/proto.ts";

/** The durable state of the service, normalised for comparison. */
export interface DurableState {
  /** `name:type`, sorted. */
  readonly namespaces: readonly string[];
  /** Namespace → drained shard keys, sorted. */
  readonly drains: Readonly<Record<string, readonly string[]>>;
  /** Namespace → shard → executor. */
  readonly assignments: Readonly<Record<string, Readonly<Record<string, string>>>>;
}

/** Reads the durable state of `namespaces` from the instance at `address`. */
export async function readDurableState(
  address: string,
  namespaces: readonly string[],
): Promise<DurableState> {
  const clients = connect(address);
  try {
    const list = await call<unknown, ListNamespacesResponse__Output>(
      clients.api,
      "listNamespaces",
      {},
      5_000,
    );
    const drains: Record<string, string[]> = {};
    const assignments: Record<string, Record<string, string>> = {};
    for (const namespace of namespaces) {
      const drained = await call<unknown, GetDrainedShardsResponse__Output>(
        clients.api,
        "getDrainedShards",
        { namespace },
        5_000,
      );
      drains[namespace] = [...drained.shardKeys].sort();
      const state = await call<unknown, GetNamespaceStateResponse__Output>(
        clients.api,
        "getNamespaceState",
        { namespace },
        5_000,
      );
      const owners: Record<string, string> = {};
      for (const executor of state.executors) {
        for (const shard of executor.assignedShards) owners[shard.shardKey] = executor.executorId;
      }
      assignments[namespace] = owners;
    }
    return {
      namespaces: list.namespaces.map((n) => `${n.name}:${n.type}`).sort(),
      drains,
      assignments,
    };
  } finally {
    clients.close();
  }
}

/** Drains `shards` of `namespace` through the instance at `address`. */
export async function drainShards(
  address: string,
  namespace: string,
  shards: readonly string[],
): Promise<void> {
  const clients = connect(address);
  try {
    await call(clients.api, "drainShards", { namespace, shardKeys: shards }, 5_000);
  } finally {
    clients.close();
  }
}

/** How `after` differs from `before`, as readable lines; empty when equal. */
export function compareDurableState(before: DurableState, after: DurableState): string[] {
  const problems: string[] = [];
  const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
  if (!same(before.namespaces, after.namespaces)) {
    problems.push(`namespaces ${before.namespaces} became ${after.namespaces}`);
  }
  for (const [namespace, drained] of Object.entries(before.drains)) {
    const now = after.drains[namespace] ?? [];
    if (!same(drained, now)) problems.push(`drains of ${namespace}: ${drained} became ${now}`);
  }
  for (const [namespace, owners] of Object.entries(before.assignments)) {
    const now = after.assignments[namespace] ?? {};
    const moved = Object.keys({ ...owners, ...now }).filter((s) => owners[s] !== now[s]);
    if (moved.length > 0) {
      problems.push(
        `assignments of ${namespace}: ${moved.length} shard(s) differ (` +
          moved.slice(0, 5).map((s) => `${s}: ${owners[s] ?? "-"} -> ${now[s] ?? "-"}`).join(", ") +
          ")",
      );
    }
  }
  return problems;
}
