/**
 * What routing queries answer, independent of the wire format.
 *
 * @module
 */
import type { ExecutorStatus, NamespaceType, ShardStatus } from "../core/types.ts";

import type { Slice } from "../core/slices.ts";
import type { KeyLoad } from "../core/types.ts";

/** The owner of a shard. */
export interface ShardOwnerView {
  /** Namespace of the shard. */
  readonly namespace: string;
  /** Executor id of the owner. */
  readonly owner: string;
  /** The owner's metadata (e.g. its address). */
  readonly metadata: Readonly<Record<string, string>>;
  /** Every owner, primary (`owner`) first: several in a namespace with replicas above 1. */
  readonly owners: readonly OwnerEntry[];
  /** Key-range namespaces: the slice the key hashed into (its id is the shard key). */
  readonly slice?: Slice;
}

/** One owner of a shard. */
export interface OwnerEntry {
  /** Executor id. */
  readonly executorId: string;
  /** Its metadata. */
  readonly metadata: Readonly<Record<string, string>>;
}

/** A shard's owner with what the operator wants to know about it. */
export interface ShardInspection extends ShardOwnerView {
  /** Load the owner reported for it (0 when none). */
  readonly load: number;
  /** Status the owner reported for it, when it reported one. */
  readonly status?: ShardStatus;
  /** Store revision of the change that gave it its owner: its fencing token. */
  readonly assignedRevision: number;
  /** When it got its owner (ms since epoch), when known. */
  readonly assignedAtMs?: number;
  /** Exclusive namespaces: its live owner does not run it (routing/not_running.ts). */
  readonly notRunning?: true;
  /** A warm handover in flight: the executor preparing it, since when, and whether it is prepared. */
  readonly incoming?: IncomingOwner;
}

/** The incoming owner of a shard in a warm handover. */
export interface IncomingOwner {
  /** The executor preparing the shard. */
  readonly executorId: string;
  /** When the prepare was committed (ms since epoch), when known. */
  readonly sinceMs?: number;
  /** It reported the shard PREPARED: the switch is due. */
  readonly prepared: boolean;
}

/** A warm handover in flight. */
export interface HandoverView {
  /** The shard. */
  readonly shardKey: string;
  /** Its owner, serving it until the switch. */
  readonly from: string;
  /** The incoming owner, preparing it. */
  readonly to: string;
  /** When the prepare was committed (ms since epoch), when known. */
  readonly sinceMs?: number;
  /** The incoming owner reported it PREPARED: the switch is due. */
  readonly prepared: boolean;
}

/** The warm handovers in flight in a namespace. */
export interface HandoversView {
  /** How many. */
  readonly total: number;
  /** The oldest, at most a hundred. */
  readonly items: readonly HandoverView[];
}

/** One shard held by an executor. */
export interface AssignedShardView {
  /** Shard key. */
  readonly shardKey: string;
  /** Store revision of the change that assigned it. */
  readonly assignedRevision: number;
  /** Load the executor reported for it (0 when none). */
  readonly load: number;
  /** When it was assigned (ms since epoch), when known. */
  readonly assignedAtMs?: number;
  /** Exclusive namespaces: the executor holds it and does not run it (routing/not_running.ts). */
  readonly notRunning?: true;
  /** Key-range namespaces: the slice this shard is. */
  readonly slice?: Slice;
  /** Key-range namespaces: an operator pinned the slice (the planner leaves it as it is). */
  readonly pinned?: true;
  /** Key-range namespaces: the slice's heaviest keys, as the executor last reported them. */
  readonly topKeys?: readonly KeyLoad[];
}

/** An executor and what it holds. */
export interface ExecutorStateView {
  /** Executor id. */
  readonly executorId: string;
  /** Last reported status. */
  readonly status: ExecutorStatus;
  /** For an `UNKNOWN` status: the enum number it sent, when known. */
  readonly statusNumber?: number;
  /** Wall-clock time of the last recorded heartbeat (ms since epoch). */
  readonly lastHeartbeatMs: number;
  /** Metadata. */
  readonly metadata: Readonly<Record<string, string>>;
  /** Shards it owns, sorted. */
  readonly assignedShards: readonly AssignedShardView[];
  /** Ids of the operator drains that apply to it, sorted (empty when not drained). */
  readonly drainedBy: readonly string[];
  /** Milliseconds since its heartbeat was last seen. */
  readonly heartbeatAgeMs: number;
  /** Whether its heartbeats are within the TTL (false while liveness is unknown). */
  readonly alive: boolean;
  /** Alive, stale, or unknown while the serving instance cannot read its store. */
  readonly liveness: "alive" | "stale" | "unknown";
  /** With liveness unknown: the instance's last good read of its store (ms since epoch). */
  readonly unknownSinceMs?: number;
  /** Sum of the loads it reported for its shards. */
  readonly totalLoad: number;
  /** Exclusive namespaces: how many of its shards it owns and does not run. */
  readonly notRunningShards?: number;
}

/** Who leads a namespace. */
export interface LeaderView {
  /** Namespace. */
  readonly namespace: string;
  /** The leading instance, when the namespace has a leader. */
  readonly instanceId?: string;
  /** The leader's term, when the namespace has a leader. */
  readonly term?: number;
  /** When the term began (ms since epoch), when known. */
  readonly sinceMs?: number;
  /**
   * Set while the serving instance cannot read its store: the leader shown is
   * the last one known, and this is the last good read (ms since epoch).
   */
  readonly unknownSinceMs?: number;
  /** Stable name of the leading instance (`server.instanceName`). */
  readonly instanceName?: string;
  /** gRPC address the leading instance advertises. */
  readonly grpcAddress?: string;
  /** HTTP address the leading instance advertises. */
  readonly httpAddress?: string;
}

/** A configured namespace. */
export interface NamespaceInfo {
  /** Name. */
  readonly name: string;
  /** fixed or ephemeral. */
  readonly type: NamespaceType;
  /** Shard count of a fixed namespace (0 for ephemeral). */
  readonly shardNum: number;
  /** How it is managed: always "onboarded" (the service assigns its shards). */
  readonly mode: string;
}

/** What a watcher of a namespace sees: every executor with its shards. */
export interface NamespacePicture {
  /** Marks a whole picture. */
  readonly kind?: "snapshot";
  /** Version of the picture; grows with every change. */
  readonly version: number;
  /** Store revision the picture reflects. */
  readonly revision?: number;
  /** Executors sorted by id. */
  readonly executors: readonly {
    readonly executorId: string;
    readonly metadata: Readonly<Record<string, string>>;
    /** Shards it owns alone or as the primary. */
    readonly shards: readonly string[];
    /** Replicated namespaces: shards it owns as a secondary owner, with its rank in the set. */
    readonly replicaShards?: readonly { readonly shard: string; readonly rank: number }[];
  }[];
  /** Key-range namespaces: the slice map (`core/slice_map_codec.ts`' binary form). */
  readonly sliceMap?: Uint8Array;
}

/** What changed for watchers between two revisions: apply it to the picture at `fromRevision`. */
export interface NamespaceDelta {
  /** Marks a delta. */
  readonly kind: "delta";
  /** The revision the receiver's picture is at. */
  readonly fromRevision: number;
  /** The revision this delta brings it to. */
  readonly revision: number;
  /** Executors added or whose metadata changed (apply first). */
  readonly executors: readonly {
    readonly executorId: string;
    readonly metadata: Readonly<Record<string, string>>;
  }[];
  /**
   * Shards whose owner changed; `owner` undefined: the shard has no owner any
   * more. `owners` lists every owner (primary first) when there are several.
   */
  readonly owners: readonly {
    readonly shard: string;
    readonly owner: string | undefined;
    readonly owners?: readonly string[];
  }[];
  /** Executors removed (apply last). */
  readonly removedExecutors: readonly string[];
  /** Key-range namespaces: the whole new slice map, when it changed (binary form). */
  readonly sliceMap?: Uint8Array;
}
