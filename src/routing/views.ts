/**
 * What routing queries answer, independent of the wire format.
 *
 * @module
 */
import type { ExecutorStatus, NamespaceType } from "../core/types.ts";

/** The owner of a shard. */
export interface ShardOwnerView {
  /** Namespace of the shard. */
  readonly namespace: string;
  /** Executor id of the owner. */
  readonly owner: string;
  /** The owner's metadata (e.g. its address). */
  readonly metadata: Readonly<Record<string, string>>;
}

/** One shard held by an executor. */
export interface AssignedShardView {
  /** Shard key. */
  readonly shardKey: string;
  /** Store revision of the change that assigned it. */
  readonly assignedRevision: number;
}

/** An executor and what it holds. */
export interface ExecutorStateView {
  /** Executor id. */
  readonly executorId: string;
  /** Last reported status. */
  readonly status: ExecutorStatus;
  /** Wall-clock time of the last recorded heartbeat (ms since epoch). */
  readonly lastHeartbeatMs: number;
  /** Metadata. */
  readonly metadata: Readonly<Record<string, string>>;
  /** Shards it owns, sorted. */
  readonly assignedShards: readonly AssignedShardView[];
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
export interface NamespaceView {
  /** Version of the picture; grows with every change. */
  readonly version: number;
  /** Executors sorted by id. */
  readonly executors: readonly {
    readonly executorId: string;
    readonly metadata: Readonly<Record<string, string>>;
    readonly shards: readonly string[];
  }[];
}
