/**
 * What the dashboard reads from a Shard Manager instance, and the JSON
 * picture of a namespace gathered from it. The backend is an interface (a
 * slice of `ShardManager`) so that routes can be tested without a store.
 *
 * @module
 */
import type { HistoryLog } from "../../../service/mod.ts";
import { NamespaceNotFoundError } from "../../../core/errors.ts";
import type { ExecutorDrains } from "../../../service/mod.ts";
import type { HealthStatus } from "../../../service/mod.ts";
import type { NamespaceOperations } from "../../../service/mod.ts";
import type {
  ExecutorStateView,
  HandoversView,
  LeaderView,
  NamespaceInfo,
  NamespacePicture,
} from "../../../routing/views.ts";
import type { ActionBackend } from "./actions.ts";
import type { LeaderCache } from "./leaders.ts";
import type { NamespacePolicy } from "../../../policy/namespace_policy.ts";
import { namespaceSettings } from "./namespace_settings.ts";
import { buildDashboardState, type DashboardState } from "./state.ts";
import type { BrakeInput } from "./brake_view.ts";

/** The part of the service (`Service` in service/mod.ts) the dashboard uses. */
export interface DashboardBackend extends ActionBackend {
  /** This instance's id. */
  readonly instanceId: string;
  /** Store reachability and cache readiness. */
  readonly health: { readonly status: HealthStatus };
  /** Shard drains (read and write). */
  readonly operations:
    & ActionBackend["operations"]
    & Pick<NamespaceOperations, "drainedShards" | "quarantinedShards">;
  /** Executor drains (read and write). */
  readonly executorDrains: ActionBackend["executorDrains"] & Pick<ExecutorDrains, "list">;
  /** The service's routing reads. */
  readonly routing: {
    /** Configured namespaces. */
    listNamespaces(): NamespaceInfo[];
    /** Every executor of a namespace. */
    getNamespaceState(namespace: string): ExecutorStateView[];
    /** A namespace's warm handovers in flight. @default {none shown} */
    handovers?(namespace: string): HandoversView;
    /** The spectator fan-out: the current picture, then every change. */
    watchNamespace(namespace: string, signal: AbortSignal): ReadableStream<NamespacePicture>;
    /** Who leads each namespace. */
    listLeaders(): Promise<LeaderView[]>;
  };
  /** The namespaces' history. @default {none: the timeline stays empty} */
  readonly history?: Pick<HistoryLog, "read">;
  /** The mass-loss brakes' records. @default {none: no brake shown} */
  readonly brakes?: { status(namespace: string): Promise<BrakeInput | undefined> };
  /** Each namespace's policy, for its settings. @default {none: no settings shown} */
  readonly namespaces?: { policy(name: string): NamespacePolicy };
}

/** The configured namespace called `name`; throws `NamespaceNotFoundError`. */
export function namespaceInfo(backend: DashboardBackend, name: string): NamespaceInfo {
  const info = backend.routing.listNamespaces().find((ns) => ns.name === name);
  if (!info) throw new NamespaceNotFoundError(name);
  return info;
}

/** Options of {@linkcode namespaceSnapshot}. */
export interface SnapshotOptions {
  /** Leader lookups, shared by every page. */
  readonly leaders: LeaderCache;
  /** `server.dashboardActions`. */
  readonly allowActions: boolean;
  /** Version of the spectator picture this snapshot follows, when it does. */
  readonly version?: number;
}

/** The JSON picture of namespace `name` now; throws `NamespaceNotFoundError`. */
export async function namespaceSnapshot(
  backend: DashboardBackend,
  name: string,
  options: SnapshotOptions,
): Promise<DashboardState> {
  const namespace = namespaceInfo(backend, name);
  const leader = await options.leaders.get(name);
  // The brake's record: the leader's own, else read from the store (never fails the page).
  const brake = await backend.brakes?.status(name).catch(() => undefined);
  // Read the cache after the (possibly slow) leader lookup, so the picture is current.
  return buildDashboardState({
    namespace,
    instanceId: backend.instanceId,
    allowActions: options.allowActions,
    nowMs: Date.now(),
    executors: backend.routing.getNamespaceState(name),
    executorDrains: backend.executorDrains.list(name),
    drainedShards: backend.operations.drainedShards(name),
    quarantinedShards: backend.operations.quarantinedShards(name),
    ...(backend.routing.handovers ? { handovers: backend.routing.handovers(name) } : {}),
    leader,
    health: backend.health.status,
    ...(backend.namespaces ? { settings: namespaceSettings(backend.namespaces.policy(name)) } : {}),
    ...(options.version === undefined ? {} : { version: options.version }),
    ...(brake ? { brake } : {}),
  });
}
