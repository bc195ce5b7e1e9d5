/**
 * The reads and watches of the routing API, answered from this instance's
 * namespace caches: who owns a shard, what an executor holds, who leads,
 * and the streams of pictures spectators follow. Nothing here writes to the
 * store (an ephemeral shard's first owner is the one exception, placed by
 * `routing/get_shard_owner.ts`).
 *
 * @module
 */
import type { BrakeHold } from "../namespace/namespace_runtime.ts";
import { type Clock, timeoutSignal } from "../core/clock.ts";
import { ExecutorNotFoundError } from "../core/errors.ts";
import type { StoreEvidence } from "../core/store_evidence.ts";
import type { NamespaceRuntime } from "../namespace/namespace_runtime.ts";
import type { LeaderStore } from "../store/mod.ts";
import * as routing from "../routing/mod.ts";
import type { Advertisement } from "./advertisement.ts";
import type { HealthMonitor } from "./health_monitor.ts";
import { listLeaders } from "./leader_list.ts";
import type { NamespaceCatalog } from "../namespace/namespace_catalog.ts";
import type { NamespaceRegistry } from "../namespace/namespace_registry.ts";
import type { RunningShards } from "./running_shards.ts";
import type { NamespaceDirectory, NamespaceListing, Routing, StoreLostSince } from "./use_cases.ts";

/**
 * How long an assignment hint stream waits for its executor to appear in the
 * picture, ms: an executor opens it right after its first answered heartbeat,
 * whose record may reach this instance's picture a moment later.
 */
export const HINT_EXECUTOR_WAIT_MS = 2_000;

/** What {@linkcode RoutingReads} reads from. */
export interface RoutingReadsOptions {
  /** This instance's id. */
  readonly instanceId: string;
  /** The namespaces served. */
  readonly registry: NamespaceRegistry;
  /** Where each definition comes from. */
  readonly catalog: Pick<NamespaceCatalog, "source">;
  /** The configuration file's namespaces, in the file's order. */
  readonly fileOrder: readonly string[];
  /** Who leads (the election's winners). */
  readonly leaderStore: LeaderStore;
  /** Where this instance can be reached. */
  readonly advertisement: Advertisement;
  /** Store reachability, probed on a timer. */
  readonly health: HealthMonitor;
  /** When the main store last answered. */
  readonly evidence: StoreEvidence;
  /** Whether the store pulse runs (it vouches for the store between probes). */
  readonly pulsing: () => boolean;
  /** What executors of exclusive namespaces run, as heard here. */
  readonly running: RunningShards;
  /** Ends every watch stream (the instance stopping). */
  readonly stop: AbortSignal;
  /** Time source. */
  readonly clock: Clock;
}

/** {@linkcode Routing} and {@linkcode NamespaceDirectory} over the namespace registry. */
export class RoutingReads implements Routing, NamespaceDirectory {
  #o: RoutingReadsOptions;
  #startedAt: { readonly now: number; readonly wallMs: number };

  /** Reads from `options`; the instance's start is now. */
  constructor(options: RoutingReadsOptions) {
    this.#o = options;
    this.#startedAt = { now: options.clock.monotonic(), wallMs: options.clock.now() };
  }

  /** Whether `namespace` is served. */
  has(namespace: string): boolean {
    return this.#o.registry.has(namespace);
  }

  /** The namespaces served, sorted by name. */
  names(): string[] {
    return this.#o.registry.names();
  }

  /** A served namespace's policy; throws NotFoundError otherwise. */
  policy(namespace: string): NamespaceRuntime["policy"] {
    return this.#o.registry.get(namespace).policy;
  }

  /** A served namespace's picture, as its cache shows it; throws NotFoundError otherwise. */
  view(namespace: string): NamespaceRuntime["view"] {
    return this.#o.registry.get(namespace).view;
  }

  /** The namespaces served: the file's in the file's order, then the API's by name. */
  listNamespaces(): NamespaceListing[] {
    const inFile = this.#o.fileOrder;
    const rank = (name: string) => {
      const index = inFile.indexOf(name);
      return index < 0 ? inFile.length : index;
    };
    const runtimes = this.#o.registry.all().sort((a, b) =>
      rank(a.name) - rank(b.name) || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)
    );
    return runtimes.map(({ policy }) => ({
      ...routing.namespaceInfoOf(policy),
      source: this.#o.catalog.source(policy.name) ?? "file",
    }));
  }

  /** Who owns a shard (creating an ephemeral one on first ask). */
  getShardOwner(
    namespace: string,
    key: string,
    signal?: AbortSignal,
  ): Promise<routing.ShardOwnerView> {
    const { clock } = this.#o;
    return routing.getShardOwner(
      this.#o.registry.get(namespace),
      key,
      clock.monotonic(),
      signal,
      clock,
    );
  }

  /** Who owns a shard, with its load and history; never creates it. */
  inspectShard(namespace: string, key: string): routing.ShardInspection {
    const ns = this.#o.registry.get(namespace);
    const evidence = this.#o.running.evidence(ns);
    return routing.inspectShard(ns, key, evidence && { evidence, time: this.time() });
  }

  /** Every executor of a namespace. */
  getNamespaceState(namespace: string): routing.ExecutorStateView[] {
    const ns = this.#o.registry.get(namespace);
    return routing.namespaceState(ns.view, this.time(), this.#o.running.evidence(ns));
  }

  /** A namespace's warm handovers in flight, oldest first. */
  handovers(namespace: string): routing.HandoversView {
    return routing.handoversInFlight(this.#o.registry.get(namespace).view);
  }

  /** A namespace's owner changes by reason, as this instance applied them since it started. */
  getShardMoves(
    namespace: string,
  ): Readonly<Record<"placement" | "balance" | "drain" | "loss", number>> {
    return { ...this.#o.registry.get(namespace).view.moveCounts };
  }

  /** One executor. */
  getExecutorState(namespace: string, executorId: string): routing.ExecutorStateView {
    const ns = this.#o.registry.get(namespace);
    return routing.executorState(ns.view, executorId, this.time(), this.#o.running.evidence(ns));
  }

  /**
   * Who leads each namespace now, sorted by namespace: the election's winner
   * (from the leader store), with the start of its term from its claim.
   */
  listLeaders(): Promise<routing.LeaderView[]> {
    const { registry, health } = this.#o;
    return listLeaders({
      runtimes: registry.names().map((name) => registry.get(name)),
      leaderStore: this.#o.leaderStore,
      instanceId: this.#o.instanceId,
      advertised: this.#o.advertisement.get(),
      storeLostSince: this.storeLostSince(),
      lastGoodReadMs: () => health.status.lastGoodReadMs,
      clock: this.#o.clock,
    });
  }

  /**
   * The gRPC address the namespace's leader advertised in its claim, as this
   * instance's cache last saw it; undefined when unknown or when this
   * instance leads.
   */
  leaderAddress(namespace: string): string | undefined {
    if (!this.#o.registry.has(namespace)) return undefined;
    const claim = this.#o.registry.get(namespace).view.leader?.claim;
    if (!claim || claim.instanceId === this.#o.instanceId) return undefined;
    return claim.grpcAddress;
  }

  /** Aggregates of a namespace, for metrics. */
  namespaceStats(namespace: string): routing.NamespaceStats {
    const ns = this.#o.registry.get(namespace);
    const running = this.#o.running.evidence(ns);
    return routing.namespaceStats(ns.view, this.time(), {
      ...(ns.policy.keys.kind === "fixed" ? { shardNum: ns.policy.keys.shardNum } : {}),
      ...(running ? { running } : {}),
    });
  }

  /** Whether this instance leads `namespace` now. */
  isLeading(namespace: string): boolean {
    return this.#o.registry.has(namespace) && this.#o.registry.get(namespace).leading;
  }

  /**
   * The mass-loss brake of `namespace` while it holds, when this instance
   * leads it (leader/process/mass_loss_brake.ts); undefined otherwise.
   */
  brake(namespace: string): BrakeHold | undefined {
    return this.#o.registry.get(namespace).brake;
  }

  /** Open subscriptions to `namespace`'s pictures: gRPC watch streams, dashboards, in-process. */
  watchSubscribers(namespace: string): number {
    return this.#o.registry.get(namespace).fanout.subscribers;
  }

  /** Open assignment hint streams of `namespace`'s executors on this instance. */
  hintSubscribers(namespace: string): number {
    return this.#o.registry.get(namespace).hints.subscribers;
  }

  /** A stream of the namespace picture: the current one, then every change. */
  watchNamespace(namespace: string, signal: AbortSignal): ReadableStream<routing.NamespacePicture> {
    // Ends when the runtime does (a changed definition): the spectator reconnects to the new one.
    return this.#o.registry.get(namespace).subscribe(AbortSignal.any([signal, this.#o.stop]));
  }

  /** Like `watchNamespace`, but after the first picture only what changed. */
  watchNamespaceDeltas(
    namespace: string,
    signal: AbortSignal,
  ): ReadableStream<routing.NamespacePicture | routing.NamespaceDelta> {
    return this.#o.registry.get(namespace).subscribeDeltas(AbortSignal.any([signal, this.#o.stop]));
  }

  /**
   * Hints that `executorId`'s assignment changed (see `Routing.watchExecutorAssignment`).
   * An executor this instance has not heard of is waited for up to
   * {@linkcode HINT_EXECUTOR_WAIT_MS}, then refused with NOT_FOUND.
   */
  async watchExecutorAssignment(
    namespace: string,
    executorId: string,
    signal: AbortSignal,
  ): Promise<ReadableStream<routing.AssignmentHint>> {
    const ns = this.#o.registry.get(namespace);
    const known = () => ns.view.executor(executorId) !== undefined;
    if (!known()) {
      const timeout = timeoutSignal(HINT_EXECUTOR_WAIT_MS, this.#o.clock);
      try {
        await ns.waitUntil(known, AbortSignal.any([signal, this.#o.stop, timeout.signal]));
      } catch {
        // Timed out, or the caller went away: answered below.
      } finally {
        timeout.clear();
      }
      if (this.#o.stop.aborted) throw this.#o.stop.reason;
      if (!known()) throw new ExecutorNotFoundError(namespace, executorId);
    }
    return ns.watchAssignment(executorId, AbortSignal.any([signal, this.#o.stop]));
  }

  /**
   * While the main store is unreachable (its pulse unanswered for a second, or
   * the last probe failed): its last answer, on both clocks (the instance's
   * start when there was none). Undefined while the store answers.
   */
  storeLostSince(): StoreLostSince | undefined {
    const status = this.#o.health.status;
    if (status.checkedAtMs === 0 || status.storeReachable) return undefined;
    return {
      now: status.lastGoodReadMonotonic ?? this.#startedAt.now,
      wallMs: status.lastGoodReadMs ?? this.#startedAt.wallMs,
    };
  }

  /** The times liveness is judged at now (the store's outage and pulse included). */
  time(): routing.InspectionTime {
    const lost = this.storeLostSince();
    const now = this.#o.clock.monotonic();
    return {
      now,
      wallNow: this.#o.clock.now(),
      ...(lost === undefined ? {} : { storeLostSince: lost }),
      ...(this.#o.pulsing() ? { vouchedNow: this.#o.evidence.vouchedAt(now) } : {}),
    };
  }
}
