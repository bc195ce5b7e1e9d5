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
  /**
   * Namespace → shard → the executors whose records list it (ids joined by
   * `+`; more than one when a stale executor's record still lists it).
   */
  readonly assignments: Readonly<Record<string, Readonly<Record<string, string>>>>;
  /** Namespace → executor → `status alive|stale`, for the report. */
  readonly executors: Readonly<Record<string, Readonly<Record<string, string>>>>;
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
    const executors: Record<string, Record<string, string>> = {};
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
      const owners: Record<string, string[]> = {};
      const seen: Record<string, string> = {};
      for (const executor of state.executors) {
        seen[executor.executorId] = `${executor.status} ${executor.alive ? "alive" : "stale"}`;
        for (const { shardKey } of executor.assignedShards) {
          (owners[shardKey] ??= []).push(executor.executorId);
        }
      }
      assignments[namespace] = Object.fromEntries(
        Object.entries(owners).map(([shard, ids]) => [shard, ids.sort().join("+")]),
      );
      executors[namespace] = seen;
    }
    return {
      namespaces: list.namespaces.map((n) => `${n.name}:${n.type}`).sort(),
      drains,
      assignments,
      executors,
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

/** How `after` differs from `before`. */
export interface StateDiff {
  /** Namespaces or drains that changed: must never happen. */
  readonly problems: string[];
  /** Shards whose listed owner changed (a leader may move shards after a restart). */
  readonly moved: string[];
}

/** Compares two reads of the durable state, as readable lines. */
export function compareDurableState(before: DurableState, after: DurableState): StateDiff {
  const problems: string[] = [];
  const moved: string[] = [];
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
    for (const shard of Object.keys({ ...owners, ...now })) {
      if (owners[shard] === now[shard]) continue;
      const state = after.executors[namespace]?.[now[shard] ?? ""] ?? "";
      const was = before.executors[namespace]?.[now[shard] ?? ""] ?? "unknown";
      moved.push(
        `${namespace}/${shard}: ${owners[shard] ?? "-"} -> ${now[shard] ?? "-"}` +
          (now[shard] ? ` (${state}; before the restart: ${was})` : ""),
      );
    }
  }
  return { problems, moved };
}
