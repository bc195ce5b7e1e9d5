/**
 * The dashboard's picture of one namespace, as JSON: what the page renders
 * and what `GET /api/namespaces/:ns` answers. Built by a pure function from
 * what the service reports, so it is easy to test. Shards travel as columns
 * (keys, owner indexes, loads) to stay small for thousands of shards.
 *
 * @module
 */
import type { HealthStatus } from "../../../service/mod.ts";
import type { ExecutorDrainView } from "../../../service/mod.ts";
import { compareShardKeys } from "../../../routing/routing.ts";
import type {
  ExecutorStateView,
  HandoversView,
  HandoverView,
  NamespaceInfo,
} from "../../../routing/views.ts";
import { ownerColour } from "../../../../packages/dashboard_browser/colour.js";
import type { LeaderInfo } from "./leaders.ts";
import type { NamespaceSetting } from "./namespace_settings.ts";
import { type BrakeInput, type BrakeView, brakeView } from "./brake_view.ts";

/** Most shards drawn in the map; a larger namespace shows its first ones. */
export const MAX_MAP_SHARDS = 100_000;

/** One executor row. */
export interface ExecutorRow {
  /** Executor id. */
  readonly executorId: string;
  /** Reported status: ACTIVE, DRAINING, DRAINED or UNKNOWN (a value this server does not know). */
  readonly status: string;
  /** Heartbeats within the TTL. */
  readonly alive: boolean;
  /** `alive`, `stale`, or `unknown` while the serving instance cannot read its store. */
  readonly liveness: "alive" | "stale" | "unknown";
  /** With liveness unknown: the instance's last good read of its store (ms since epoch). */
  readonly unknownSinceMs?: number;
  /** Milliseconds since its heartbeat was last seen. */
  readonly heartbeatAgeMs: number;
  /** Sum of the loads it reported for its shards. */
  readonly totalLoad: number;
  /** Shards it owns. */
  readonly shardCount: number;
  /** Ids of the operator drains that hold it (empty when not drained). */
  readonly drainedBy: readonly string[];
  /** Its metadata (e.g. its address). */
  readonly metadata: Readonly<Record<string, string>>;
  /** Its colour in the shard map. */
  readonly colour: string;
}

/** One operator drain of executors. */
export interface ExecutorDrainRow {
  /** `id:<executor>` or `selector:k=v,...`. */
  readonly id: string;
  /** The drained executor, for a drain by id. */
  readonly executorId?: string;
  /** The metadata selector, for a drain by selector. */
  readonly selector?: Readonly<Record<string, string>>;
  /** Free text from the operator. */
  readonly reason: string;
  /** When it was made (ms since epoch). */
  readonly createdAtMs: number;
  /** Known executors it matches now. */
  readonly matched: readonly string[];
}

/** Shards as columns: `owners[i]` indexes `executors` (-1: no owner). */
export interface ShardColumns {
  /** Shard keys in display order. */
  readonly keys: readonly string[];
  /** Index of each shard's owner in `executors`, or -1. */
  readonly owners: readonly number[];
  /** Load each shard's owner reported for it (0 when none). */
  readonly loads: readonly number[];
  /** Shards the namespace has in all (more than `keys.length` when the map is cut). */
  readonly total: number;
}

/**
 * Key-range namespaces: the slices along the hash line, in line order, as
 * fractions of it; a slice's owner and load are its key's in `shards`.
 */
export interface KeyLine {
  /** Slice keys (ids), in line order. */
  readonly keys: readonly string[];
  /** Where each starts, 0 to 1. */
  readonly starts: readonly number[];
  /** Where each ends, 0 to 1 (at least its start; a hot key's single point is a sliver). */
  readonly ends: readonly number[];
}

/** Counts shown at the top of the page. */
export interface NamespaceSummary {
  /** Executors known. */
  readonly executors: number;
  /** Executors heartbeating within the TTL. */
  readonly alive: number;
  /** Executors whose liveness is unknown (the serving instance cannot read its store). */
  readonly unknown: number;
  /** Shards known (for a fixed namespace: its shard count). */
  readonly shards: number;
  /** Shards with an owner. */
  readonly owned: number;
  /** Drained shards. */
  readonly drained: number;
  /** Of them, the poison shards the leader quarantined. */
  readonly quarantined: number;
  /** Shards neither owned nor drained. */
  readonly unowned: number;
  /** Exclusive namespaces: owned shards whose live owner does not run them. */
  readonly notRunning: number;
  /** Warm handovers in flight. */
  readonly handovers: number;
  /** Sum of all executors' loads. */
  readonly totalLoad: number;
  /** Highest load of one shard. */
  readonly maxShardLoad: number;
}

/** The JSON picture of one namespace. */
export interface DashboardState {
  /** The namespace. */
  readonly namespace: NamespaceInfo;
  /** The instance that served this picture. */
  readonly instanceId: string;
  /** Whether this instance accepts drain and undrain from the page. */
  readonly allowActions: boolean;
  /** When the picture was taken (ms since epoch, the instance's clock). */
  readonly generatedAtMs: number;
  /** Version of the spectator picture it follows, when it came from the event stream. */
  readonly version?: number;
  /** Store reachability and cache readiness of the serving instance. */
  readonly health: HealthStatus;
  /** The namespace's leader. */
  readonly leader: LeaderInfo;
  /** Counts. */
  readonly summary: NamespaceSummary;
  /** Executors sorted by id. */
  readonly executors: readonly ExecutorRow[];
  /** Executor drains sorted by id. */
  readonly executorDrains: readonly ExecutorDrainRow[];
  /** Drained shard keys, sorted. */
  readonly drainedShards: readonly string[];
  /** Of them, those the leader quarantined (poison shards), sorted. */
  readonly quarantinedShards: readonly string[];
  /** Warm handovers in flight, oldest first (at most a hundred). */
  readonly handovers: readonly HandoverView[];
  /** The shard map. */
  readonly shards: ShardColumns;
  /** Key-range namespaces: the slices along the line; absent in other namespaces. */
  readonly line?: KeyLine;
  /** The namespace's settings in force (empty when the backend does not tell them). */
  readonly settings: readonly NamespaceSetting[];
  /** The mass-loss brake's latest record; null when it never engaged (or is not known). */
  readonly brake: BrakeView | null;
}

/** What {@linkcode buildDashboardState} is built from. */
export interface DashboardInput {
  /** The namespace. */
  readonly namespace: NamespaceInfo;
  /** The serving instance's id. */
  readonly instanceId: string;
  /** `server.dashboardActions`. */
  readonly allowActions: boolean;
  /** Now (ms since epoch). */
  readonly nowMs: number;
  /** `Routing.getNamespaceState()` (service/use_cases.ts). */
  readonly executors: readonly ExecutorStateView[];
  /** `ExecutorDrains.list()`. */
  readonly executorDrains: readonly ExecutorDrainView[];
  /** `NamespaceOperations.drainedShards()`. */
  readonly drainedShards: readonly string[];
  /** `NamespaceOperations.quarantinedShards()`. @default {none} */
  readonly quarantinedShards?: readonly string[];
  /** `Routing.handovers()`. @default {none} */
  readonly handovers?: HandoversView;
  /** The leader. */
  readonly leader: LeaderInfo;
  /** The serving instance's health. */
  readonly health: HealthStatus;
  /** Version of the spectator picture, when known. */
  readonly version?: number;
  /** The namespace's settings. @default {[]} */
  readonly settings?: readonly NamespaceSetting[];
  /** `Brakes.status()`: the mass-loss brake's latest record. @default {none} */
  readonly brake?: BrakeInput;
}

/**
 * Builds the JSON picture of a namespace. Executors keep the service's order
 * (by id); a fixed namespace's map lists every shard `0..shardNum-1`, an
 * ephemeral one's the shards owned or drained, sorted like routing sorts them.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { buildDashboardState } from "./state.ts";
 *
 * const state = buildDashboardState({
 *   namespace: { name: "ns", type: "fixed", shardNum: 2, mode: "onboarded" },
 *   instanceId: "i1",
 *   allowActions: false,
 *   nowMs: 0,
 *   executors: [],
 *   executorDrains: [],
 *   drainedShards: ["1"],
 *   leader: {},
 *   health: { storeReachable: true, synced: true, ready: true, checkedAtMs: 0 },
 * });
 * assert.equal(state.shards.keys.join(), "0,1");
 * assert.equal(state.summary.unowned, 1);
 * ```
 */
export function buildDashboardState(
  input: DashboardInput,
  options: { readonly maxShards?: number } = {},
): DashboardState {
  const maxShards = options.maxShards ?? MAX_MAP_SHARDS;
  const ownerOf = new Map<string, number>();
  const loadOf = new Map<string, number>();
  const slices = new Map<string, { start: bigint; end: bigint }>();
  let totalLoad = 0;
  let maxShardLoad = 0;
  const executors = input.executors.map((e, index): ExecutorRow => {
    for (const shard of e.assignedShards) {
      if (shard.slice) slices.set(shard.shardKey, shard.slice);
      ownerOf.set(shard.shardKey, index);
      loadOf.set(shard.shardKey, shard.load);
      if (shard.load > maxShardLoad) maxShardLoad = shard.load;
    }
    totalLoad += e.totalLoad;
    return {
      executorId: e.executorId,
      status: e.status,
      alive: e.alive,
      liveness: e.liveness,
      ...(e.unknownSinceMs === undefined ? {} : { unknownSinceMs: e.unknownSinceMs }),
      heartbeatAgeMs: e.heartbeatAgeMs,
      totalLoad: e.totalLoad,
      shardCount: e.assignedShards.length,
      drainedBy: e.drainedBy,
      metadata: e.metadata,
      colour: ownerColour(index),
    };
  });
  const drained = new Set(input.drainedShards);
  const { keys, total } = shardKeys(input.namespace, ownerOf, drained, maxShards);
  let ownedOrDrained = ownerOf.size;
  for (const key of drained) if (!ownerOf.has(key)) ownedOrDrained++;
  const unowned = input.namespace.type === "fixed" ? Math.max(0, total - ownedOrDrained) : 0;
  return {
    namespace: input.namespace,
    instanceId: input.instanceId,
    allowActions: input.allowActions,
    generatedAtMs: input.nowMs,
    ...(input.version === undefined ? {} : { version: input.version }),
    health: input.health,
    leader: input.leader,
    summary: {
      executors: executors.length,
      alive: executors.filter((e) => e.alive).length,
      unknown: executors.filter((e) => e.liveness === "unknown").length,
      shards: total,
      owned: ownerOf.size,
      drained: drained.size,
      quarantined: input.quarantinedShards?.length ?? 0,
      unowned,
      notRunning: input.executors.reduce((n, e) => n + (e.notRunningShards ?? 0), 0),
      handovers: input.handovers?.total ?? 0,
      totalLoad,
      maxShardLoad,
    },
    executors,
    executorDrains: input.executorDrains.map(({ drain, matched }) => ({
      id: drain.id,
      ...(drain.executorId === undefined
        ? { selector: drain.selector }
        : { executorId: drain.executorId }),
      reason: drain.reason,
      createdAtMs: drain.createdAtMs,
      matched,
    })),
    drainedShards: [...input.drainedShards].sort(compareShardKeys),
    quarantinedShards: [...input.quarantinedShards ?? []].sort(compareShardKeys),
    handovers: input.handovers?.items ?? [],
    shards: {
      keys,
      owners: keys.map((k) => ownerOf.get(k) ?? -1),
      loads: keys.map((k) => loadOf.get(k) ?? 0),
      total,
    },
    ...(slices.size > 0 ? { line: keyLine(slices) } : {}),
    settings: input.settings ?? [],
    brake: input.brake ? brakeView(input.brake) : null,
  };
}

/** The owned slices in line order, as fractions of the line. */
function keyLine(slices: ReadonlyMap<string, { start: bigint; end: bigint }>): KeyLine {
  const sorted = [...slices].sort(([, a], [, b]) => (a.start < b.start ? -1 : 1));
  const fraction = (point: bigint) => Number(point) / 2 ** 64;
  return {
    keys: sorted.map(([key]) => key),
    starts: sorted.map(([, s]) => fraction(s.start)),
    ends: sorted.map(([, s]) => fraction(s.end)),
  };
}

function shardKeys(
  namespace: NamespaceInfo,
  owned: ReadonlyMap<string, number>,
  drained: ReadonlySet<string>,
  max: number,
): { keys: string[]; total: number } {
  if (namespace.type === "fixed") {
    const n = Math.min(namespace.shardNum, max);
    return { keys: Array.from({ length: n }, (_, i) => String(i)), total: namespace.shardNum };
  }
  const all = [...new Set([...owned.keys(), ...drained])].sort(compareShardKeys);
  return { keys: all.slice(0, max), total: all.length };
}
