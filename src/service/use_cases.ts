/**
 * What the transport (gRPC handlers, the heartbeat lane, HTTP and the
 * dashboard) can ask of the service: a few narrow use cases, each a handful
 * of methods. `ShardManager` builds them and owns start and stop; the
 * transport sees only these (`tests/boundaries_test.ts` checks that it
 * imports the service through `service/mod.ts` alone).
 *
 * @module
 */
import type { Heartbeats } from "../heartbeat/mod.ts";
import type { ServiceObserver } from "../core/observer.ts";
import type { RequestLimits } from "../limits/request_limits.ts";
import type * as routing from "../routing/mod.ts";
import type { DefinitionSource } from "../store/mod.ts";
import type { CellOperations } from "./cell_operations.ts";
import type { BrakeOperations } from "./brake_operations.ts";
import type { SliceOperations } from "./slice_operations.ts";
import type { ExecutorDrains } from "./executor_drains.ts";
import type { StopChecks } from "./stop_checks.ts";
import type { HealthMonitor } from "./health_monitor.ts";
import type { HistoryLog } from "./history_log.ts";
import type { NamespaceAdmin } from "../namespace/namespace_admin.ts";
import type { NamespaceOperations } from "./namespace_operations.ts";
import type { OperatorAudit } from "./operator_audit.ts";
import type { NamespaceRuntime } from "../namespace/namespace_runtime.ts";

/** A served namespace, as `ListNamespaces` tells it. */
export type NamespaceListing = routing.NamespaceInfo & { readonly source: DefinitionSource };

/** The main store's last answer before an outage, on both clocks. */
export interface StoreLostSince {
  /** Monotonic ms. */
  readonly now: number;
  /** Wall-clock ms. */
  readonly wallMs: number;
}

/** Who owns what: the reads and watches that spectators, smctl and the dashboard make. */
export interface Routing {
  /** The namespaces served: the file's in the file's order, then the API's by name. */
  listNamespaces(): NamespaceListing[];
  /** Who owns a shard (creating an ephemeral one on first ask). */
  getShardOwner(
    namespace: string,
    key: string,
    signal?: AbortSignal,
  ): Promise<routing.ShardOwnerView>;
  /** Who owns a shard, with its load and history; never creates it. */
  inspectShard(namespace: string, key: string): routing.ShardInspection;
  /** Every executor of a namespace. */
  getNamespaceState(namespace: string): routing.ExecutorStateView[];
  /** A namespace's warm handovers in flight, oldest first. */
  handovers(namespace: string): routing.HandoversView;
  /** One executor. */
  getExecutorState(namespace: string, executorId: string): routing.ExecutorStateView;
  /** A namespace's owner changes by reason, as this instance applied them since it started. */
  getShardMoves(
    namespace: string,
  ): Readonly<Record<"placement" | "balance" | "drain" | "loss", number>>;
  /** Who leads each namespace now, sorted by namespace. */
  listLeaders(): Promise<routing.LeaderView[]>;
  /** The gRPC address of the namespace's leader when another instance leads it. */
  leaderAddress(namespace: string): string | undefined;
  /** A stream of the namespace picture: the current one, then every change. */
  watchNamespace(namespace: string, signal: AbortSignal): ReadableStream<routing.NamespacePicture>;
  /** Like `watchNamespace`, but after the first picture only what changed. */
  watchNamespaceDeltas(
    namespace: string,
    signal: AbortSignal,
  ): ReadableStream<routing.NamespacePicture | routing.NamespaceDelta>;
  /** While the main store is unreachable: its last answer; undefined while it answers. */
  storeLostSince(): StoreLostSince | undefined;
  /**
   * Hints that `executorId`'s assignment changed: the current revision at
   * once, then one per change that concerns it (routing/assignment_hints.ts).
   * Rejects with NOT_FOUND for a namespace not served or an executor not
   * heard of within a short wait, RESOURCE_EXHAUSTED past the streams one
   * executor may hold; the stream ends when `signal` aborts, the namespace's
   * runtime stops or the instance stops.
   */
  watchExecutorAssignment(
    namespace: string,
    executorId: string,
    signal: AbortSignal,
  ): Promise<ReadableStream<routing.AssignmentHint>>;
}

/** Read-only access to the namespaces served (the registry itself is private). */
export interface NamespaceDirectory {
  /** Whether `namespace` is served. */
  has(namespace: string): boolean;
  /** The namespaces served, sorted by name. */
  names(): string[];
  /** A served namespace's policy; throws NotFoundError otherwise. */
  policy(namespace: string): NamespaceRuntime["policy"];
  /** A served namespace's picture; throws NotFoundError otherwise. */
  view(namespace: string): NamespaceRuntime["view"];
}

/** Drain, undrain and reset shards. */
export type Operations = Pick<
  NamespaceOperations,
  "drainShards" | "undrainShards" | "drainedShards" | "quarantinedShards" | "forceReset"
>;

/** Operator drains of executors. */
export type Drains = Pick<ExecutorDrains, "drain" | "undrain" | "list">;

/** "May these executors stop now?", for deploy tools. */
export type StopQuestions = Pick<StopChecks, "check">;

/** Tenant moves of cells namespaces and blast-radius reports. */
export type Cells = Pick<CellOperations, "moveShards" | "blastRadius">;

/** The mass-loss brake, lifted by an operator. */
export type Brakes = Pick<BrakeOperations, "lift" | "status">;

/** Slice edits of key-range namespaces. */
export type Slices = Pick<SliceOperations, "change">;

/** The namespace RPCs: create, update, delete, read. */
export type Admin = Pick<NamespaceAdmin, "create" | "update" | "delete" | "read">;

/** The namespaces' history, read. */
export type History = Pick<HistoryLog, "read" | "readRemoved">;

/** Store reachability and cache readiness. */
export type Health = Pick<HealthMonitor, "status" | "onChange">;

/** Records refused operator calls. */
export type Audit = Pick<OperatorAudit, "refused">;

/** Everything the transport can ask of one instance. */
export interface Service {
  /** This instance's id. */
  readonly instanceId: string;
  /** Limits on requests. */
  readonly limits: RequestLimits;
  /** Where observations for metrics go. */
  readonly observer: ServiceObserver;
  /** The namespaces served, read-only. */
  readonly namespaces: NamespaceDirectory;
  /** Reads and watches. */
  readonly routing: Routing;
  /** Record a heartbeat, answer with the executor's shards. */
  readonly heartbeats: Heartbeats;
  /** Drain, undrain, reset. */
  readonly operations: Operations;
  /** Executor drains. */
  readonly executorDrains: Drains;
  /** Whether executors may stop now. */
  readonly stopChecks: StopQuestions;
  /** Cells. */
  readonly cells: Cells;
  /** Mass-loss brakes. */
  readonly brakes: Brakes;
  /** Slice edits by hand. */
  readonly slices: Slices;
  /** Namespace definitions. */
  readonly admin: Admin;
  /** History reads. */
  readonly history: History;
  /** Refused calls, recorded. */
  readonly audit: Audit;
  /** Readiness. */
  readonly health: Health;
}
