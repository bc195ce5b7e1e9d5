/**
 * Received wire messages turned into the plain objects smctl prints: in
 * `--json` mode as they are, in human mode through the `*_format.ts` modules.
 * Conventions: camelCase keys, numbers as numbers (int64 strings converted),
 * times as ISO 8601 strings or null, enum names without their prefix
 * (`ACTIVE`, `READY`).
 *
 * @module
 */
import type {
  ExecutorDrain__Output,
  InspectShardResponse__Output,
  NamespaceConfig__Output,
  NamespaceExecutorState__Output,
  NamespaceLeader__Output,
} from "../wire/proto.ts";
import { isoTime, timestampMs } from "./time.ts";

/** A namespace's configuration. */
export interface NamespaceModel {
  /** Name. */
  readonly name: string;
  /** `fixed` or `ephemeral`. */
  readonly type: string;
  /** Migration mode, e.g. `onboarded`. */
  readonly mode: string;
  /** Shards of a fixed namespace; 0 for ephemeral ones. */
  readonly shardNum: number;
  /** Where its definition comes from: `file` or `api` (absent from older servers). */
  readonly source?: string;
}

/** An executor as listed. */
export interface ExecutorModel {
  /** Executor id. */
  readonly id: string;
  /** `ACTIVE`, `DRAINING` or `DRAINED` as it last reported. */
  readonly status: string;
  /** Whether its heartbeats are recent enough. */
  readonly alive: boolean;
  /**
   * `alive`, `stale`, or `unknown` while the serving instance cannot read its
   * store (an older service sends none: then from `alive`).
   */
  readonly liveness?: "alive" | "stale" | "unknown";
  /** With liveness unknown: the serving instance's last good read of its store. */
  readonly unknownSince?: string | null;
  /** Age of its last recorded heartbeat, ms. */
  readonly heartbeatAgeMs: number;
  /** When its last heartbeat was received. */
  readonly lastHeartbeat: string | null;
  /** Shards assigned to it. */
  readonly shardCount: number;
  /** Exclusive namespaces: shards it owns and does not run (absent from older servers: 0). */
  readonly notRunningShards?: number;
  /** Sum of its shards' reported loads. */
  readonly totalLoad: number;
  /** Whether an operator drain applies to it. */
  readonly drained: boolean;
  /** Ids of the drains that apply to it. */
  readonly drainedBy: readonly string[];
  /** Metadata from its last heartbeat. */
  readonly metadata: Readonly<Record<string, string>>;
}

/** One shard held by an executor. */
export interface HeldShardModel {
  /** Shard key. */
  readonly key: string;
  /** Load the executor reported for it. */
  readonly load: number;
  /** Store revision of the change that assigned it. */
  readonly assignedRevision: number;
  /** When it got this owner. */
  readonly assignedAt: string | null;
  /** Exclusive namespaces: the executor holds it and does not run it. */
  readonly notRunning?: boolean;
}

/** An executor with its shards. */
export interface ExecutorDetailModel extends ExecutorModel {
  /** Its shards, in the service's order. */
  readonly shards: readonly HeldShardModel[];
}

/** An operator's drain of executors. */
export interface DrainModel {
  /** `id:<executor>` or `selector:k=v,...`. */
  readonly id: string;
  /** `id` or `selector`. */
  readonly kind: "id" | "selector";
  /** The executor, for a drain by id. */
  readonly executorId: string | null;
  /** The selector, for a drain by selector. */
  readonly selector: Readonly<Record<string, string>> | null;
  /** Free text given with the drain. */
  readonly reason: string;
  /** When the drain was made. */
  readonly createdAt: string | null;
  /** Known executors it matches now. */
  readonly matchedExecutorIds: readonly string[];
}

/** Who leads a namespace. */
export interface LeaderModel {
  /** Namespace. */
  readonly namespace: string;
  /** Leading instance, or null when there is none. */
  readonly instanceId: string | null;
  /** The leader's term (0 without a leader). */
  readonly term: number;
  /** When the term began. */
  readonly since: string | null;
  /** Set while the serving instance cannot read its store: its last good read. */
  readonly unknownSince?: string | null;
  /** Stable name of the leading instance, or null when unknown. */
  readonly instanceName?: string | null;
  /** gRPC address of the leading instance, or null when unknown. */
  readonly grpcAddress?: string | null;
  /** HTTP address of the leading instance, or null when unknown. */
  readonly httpAddress?: string | null;
}

/** A shard as `InspectShard` sees it. */
export interface ShardModel {
  /** Namespace. */
  readonly namespace: string;
  /** Shard key. */
  readonly shardKey: string;
  /** Owning executor. */
  readonly owner: string;
  /** The owner's metadata. */
  readonly metadata: Readonly<Record<string, string>>;
  /** Load the owner reported. */
  readonly load: number;
  /** `READY` or `DONE` as the owner reported, null when it reported nothing. */
  readonly status: string | null;
  /** Fencing token: store revision of the change that gave it its owner. */
  readonly assignedRevision: number;
  /** When it got its owner. */
  readonly assignedAt: string | null;
  /** Replicated namespaces: every owner, primary (`owner`) first; absent with one owner. */
  readonly owners?: readonly string[];
  /** True when an operator drained the shard: it has no owner until undrained. */
  readonly drained?: boolean;
  /** Drained: true when the leader quarantined it (a poison shard), not an operator. */
  readonly quarantined?: boolean;
  /** Exclusive namespaces: its live owner does not run it. */
  readonly notRunning?: boolean;
  /** A warm handover in flight: the executor preparing the shard, since when, and whether it is prepared. */
  readonly incoming?: {
    readonly executorId: string;
    readonly since: string | null;
    readonly prepared: boolean;
  };
}

/**
 * A drained shard as `shard inspect` shows it: no owner, and the drain.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { drainedShardModel } from "./model.ts";
 *
 * assert.equal(drainedShardModel("ns", "9").drained, true);
 * ```
 */
export function drainedShardModel(
  namespace: string,
  shardKey: string,
  quarantined = false,
): ShardModel {
  return {
    ...(quarantined ? { quarantined: true } : {}),
    namespace,
    shardKey,
    owner: "",
    metadata: {},
    load: 0,
    status: null,
    assignedRevision: 0,
    assignedAt: null,
    drained: true,
  };
}

/**
 * An enum name without its prefix: `EXECUTOR_STATUS_ACTIVE` → `ACTIVE`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { shortEnum } from "./model.ts";
 *
 * assert.equal(shortEnum("SHARD_STATUS_READY", "SHARD_STATUS_"), "READY");
 * assert.equal(shortEnum(7, "EXECUTOR_STATUS_"), "UNKNOWN(7)");
 * ```
 */
export function shortEnum(name: string | number, prefix: string): string {
  // A value the contract does not name arrives as its number (proto3 enums are open).
  if (typeof name === "number") return `UNKNOWN(${name})`;
  return name.startsWith(prefix) ? name.slice(prefix.length) : name;
}

/** A configured namespace. */
export function namespaceModel(wire: NamespaceConfig__Output): NamespaceModel {
  return {
    name: wire.name,
    type: wire.type,
    mode: wire.mode,
    shardNum: Number(wire.shardNum),
    ...(wire.source ? { source: wire.source } : {}),
  };
}

function livenessOf(wire: NamespaceExecutorState__Output): "alive" | "stale" | "unknown" {
  const name = shortEnum(wire.liveness ?? 0, "EXECUTOR_LIVENESS_");
  if (name === "UNKNOWN") return "unknown";
  if (name === "STALE") return "stale";
  if (name === "ALIVE") return "alive";
  return wire.alive ? "alive" : "stale";
}

/** An executor without its shard list. */
export function executorModel(wire: NamespaceExecutorState__Output): ExecutorModel {
  return {
    id: wire.executorId,
    status: shortEnum(wire.status, "EXECUTOR_STATUS_"),
    alive: wire.alive,
    liveness: livenessOf(wire),
    unknownSince: isoTime(timestampMs(wire.unknownSince)),
    heartbeatAgeMs: Number(wire.heartbeatAgeMs),
    lastHeartbeat: isoTime(timestampMs(wire.lastHeartbeat)),
    shardCount: Math.max(Number(wire.shardCount), wire.assignedShards.length),
    ...(Number(wire.notRunningShards ?? 0) > 0
      ? { notRunningShards: Number(wire.notRunningShards) }
      : {}),
    totalLoad: wire.totalLoad,
    drained: wire.drained,
    drainedBy: [...wire.drainedBy],
    metadata: { ...wire.metadata },
  };
}

/** An executor with its shards. */
export function executorDetailModel(wire: NamespaceExecutorState__Output): ExecutorDetailModel {
  return {
    ...executorModel(wire),
    shards: wire.assignedShards.map((s) => ({
      key: s.shardKey,
      load: s.shardLoad,
      assignedRevision: Number(s.assignedStateModRevision),
      assignedAt: isoTime(timestampMs(s.assignedAt)),
      ...(s.notRunning ? { notRunning: true } : {}),
    })),
  };
}

/** An executor drain. */
export function drainModel(wire: ExecutorDrain__Output): DrainModel {
  const bySelector = wire.executorId === "" && Object.keys(wire.selector).length > 0;
  return {
    id: wire.id,
    kind: bySelector ? "selector" : "id",
    executorId: bySelector ? null : wire.executorId,
    selector: bySelector ? { ...wire.selector } : null,
    reason: wire.reason,
    createdAt: isoTime(timestampMs(wire.createdAt)),
    matchedExecutorIds: [...wire.matchedExecutorIds],
  };
}

/** A namespace's leader. */
export function leaderModel(wire: NamespaceLeader__Output): LeaderModel {
  return {
    namespace: wire.namespace,
    instanceId: wire.instanceId === "" ? null : wire.instanceId,
    term: Number(wire.term),
    since: isoTime(timestampMs(wire.since)),
    unknownSince: isoTime(timestampMs(wire.unknownSince)),
    instanceName: wire.instanceName || null,
    grpcAddress: wire.grpcAddress || null,
    httpAddress: wire.httpAddress || null,
  };
}

/** An inspected shard. */
export function shardModel(shardKey: string, wire: InspectShardResponse__Output): ShardModel {
  const status = shortEnum(wire.shardStatus, "SHARD_STATUS_");
  return {
    namespace: wire.namespace,
    shardKey,
    owner: wire.owner,
    metadata: { ...wire.metadata },
    load: wire.shardLoad,
    status: status === "INVALID" ? null : status,
    assignedRevision: Number(wire.assignedRevision),
    assignedAt: isoTime(timestampMs(wire.assignedAt)),
    ...((wire.owners?.length ?? 0) > 1 ? { owners: wire.owners.map((o) => o.executorId) } : {}),
    ...(wire.notRunning ? { notRunning: true } : {}),
    ...(wire.incomingOwner
      ? {
        incoming: {
          executorId: wire.incomingOwner,
          since: isoTime(timestampMs(wire.preparingSince)),
          prepared: wire.incomingPrepared === true,
        },
      }
      : {}),
  };
}
