/**
 * Prometheus metrics: the `ServiceObserver` port implemented with
 * `npm:prom-client` (the only code that imports it), plus gauges read from the
 * service at scrape time. Names and labels are listed in docs/metrics.md.
 *
 * @module
 */
import * as prom from "prom-client";
import type { PassObservation, ServiceObserver } from "../core/observer.ts";
import type { NamespaceStats } from "../routing/namespace_stats.ts";
import type { ShardManager } from "../service/mod.ts";
import { type Clock, systemClock } from "../core/clock.ts";
import { registerAlertGauges } from "./alert_gauges.ts";
import { registerNamespaceGauges } from "./namespace_gauges.ts";
import { namespaceGauge } from "./namespace_gauge.ts";
import { OPERATOR_METHODS } from "../core/operator_methods.ts";
import { registerProcessMetrics } from "./process_metrics.ts";
import { RangeMetrics } from "./range_metrics.ts";

/**
 * The operator RPCs (writes an operator asks for) that `sm_operator_calls_total`
 * counts by method and result.
 */
export { OPERATOR_METHODS };

/** The reasons of `sm_shard_moves_total`, each exported at 0 from the first scrape on. */
const MOVE_REASONS = ["placement", "balance", "drain", "loss"] as const satisfies readonly (
  keyof NonNullable<PassObservation["reasons"]>
)[];

const LATENCY_BUCKETS = [
  0.0005,
  0.001,
  0.0025,
  0.005,
  0.01,
  0.025,
  0.05,
  0.1,
  0.25,
  0.5,
  1,
  2.5,
  5,
  10,
];

/** Every metric of an instance, in its own registry. */
export class PrometheusMetrics implements ServiceObserver {
  /** The registry `/metrics` renders. */
  readonly registry: prom.Registry = new prom.Registry();
  #requests: prom.Counter<"method" | "code">;
  #requestSeconds: prom.Histogram<"method">;
  #passes: prom.Counter<"namespace" | "changed">;
  #moves: prom.Counter<"namespace">;
  #shardMoves: prom.Counter<"namespace" | "reason">;
  #handovers: prom.Counter<"namespace" | "outcome">;
  #quarantines: prom.Counter<"namespace">;
  #prepareSeconds: prom.Histogram<"namespace">;
  #passSeconds: prom.Histogram<"namespace">;
  #propagation: prom.Histogram<"namespace">;
  #handover: prom.Histogram<"namespace">;
  #placement: prom.Gauge<"namespace" | "figure">;
  #ranges: RangeMetrics;
  #operatorCalls: prom.Counter<"method" | "result">;
  #watchStreams: prom.Gauge<"namespace">;
  #storeRoundTrip: prom.Histogram;
  #storeProbes: prom.Counter<"result">;
  #namespaces: () => readonly { readonly name: string }[] = () => [];

  /**
   * Creates the metrics; `collectDefaults` adds `sm_build_info` and the process
   * metrics (CPU, memory, open files; see process_metrics.ts).
   */
  constructor(options: { readonly collectDefaults?: boolean } = {}) {
    const registers = [this.registry];
    if (options.collectDefaults ?? true) registerProcessMetrics(this.registry);
    this.#operatorCalls = new prom.Counter({
      name: "sm_operator_calls_total",
      help: "Operator writes (drains, undrains, moves, force resets) by method and result " +
        "(the gRPC status name).",
      labelNames: ["method", "result"],
      registers,
    });
    this.#watchStreams = new prom.Gauge({
      name: "sm_watch_streams",
      help: "Open WatchNamespaceState gRPC streams (spectators) of this instance.",
      labelNames: ["namespace"],
      registers,
    });
    this.#storeRoundTrip = new prom.Histogram({
      name: "sm_store_round_trip_seconds",
      help: "Round trip of the main store's health probe (a trivial read every 2 s) that answered.",
      buckets: LATENCY_BUCKETS,
      registers,
    });
    this.#storeProbes = new prom.Counter({
      name: "sm_store_probes_total",
      help: "Health probes of the main store by result: ok, or error (failed or over 2 s).",
      labelNames: ["result"],
      registers,
    });
    this.#requests = new prom.Counter({
      name: "sm_grpc_requests_total",
      help: "Unary gRPC requests handled, by method and status code.",
      labelNames: ["method", "code"],
      registers,
    });
    this.#requestSeconds = new prom.Histogram({
      name: "sm_grpc_request_duration_seconds",
      help: "Time to handle a unary gRPC request, by method.",
      labelNames: ["method"],
      buckets: LATENCY_BUCKETS,
      registers,
    });
    this.#passes = new prom.Counter({
      name: "sm_rebalance_passes_total",
      help: "Rebalance passes run by this instance as leader; changed=true when one committed.",
      labelNames: ["namespace", "changed"],
      registers,
    });
    this.#moves = new prom.Counter({
      name: "sm_rebalance_moves_total",
      help: "Shards moved between live executors by this instance's passes.",
      labelNames: ["namespace"],
      registers,
    });
    this.#shardMoves = new prom.Counter({
      name: "sm_shard_moves_total",
      help: "Shards given a new owner by this instance's committed passes, by reason: " +
        "placement (it had none), balance (its owner stays eligible), drain (its owner is " +
        "draining or drained), loss (its owner is stale).",
      labelNames: ["namespace", "reason"],
      registers,
      // A series born at 17 hides its first 17 from increase(): start every one at 0.
      collect: () => {
        for (const { name: namespace } of this.#namespaces()) {
          for (const reason of MOVE_REASONS) this.#shardMoves.inc({ namespace, reason }, 0);
        }
      },
    });
    this.#handovers = new prom.Counter({
      name: "sm_handovers_total",
      help: "Warm handovers by this instance's committed passes, by outcome: prepared (a " +
        "planned move started by asking the incoming owner to prepare), warm (switched to an " +
        "owner that had prepared), cold (switched unprepared: the old owner was lost, or had " +
        "to move and the prepare timed out), cancelled (the incoming owner was lost or is no " +
        "longer eligible), timed_out (a balancing move not prepared in time, cancelled).",
      labelNames: ["namespace", "outcome"],
      registers,
    });
    this.#quarantines = new prom.Counter({
      name: "sm_quarantines_total",
      help: "Poison shards quarantined by this instance's passes (drained with the reason " +
        "quarantined after too many executors failed with them).",
      labelNames: ["namespace"],
      registers,
      collect: () => {
        for (const { name: namespace } of this.#namespaces()) {
          this.#quarantines.inc({ namespace }, 0);
        }
      },
    });
    this.#prepareSeconds = new prom.Histogram({
      name: "sm_handover_prepare_seconds",
      help: "Time from a warm handover's prepare to its switch, as the leader saw it.",
      labelNames: ["namespace"],
      buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60],
      registers,
    });
    this.#passSeconds = new prom.Histogram({
      name: "sm_rebalance_pass_duration_seconds",
      help: "Time a rebalance pass took: planning and the fenced commit.",
      labelNames: ["namespace"],
      buckets: LATENCY_BUCKETS,
      registers,
    });
    this.#propagation = new prom.Histogram({
      name: "sm_assignment_propagation_seconds",
      help: "From the leader's commit of an assignment change to this instance applying it.",
      labelNames: ["namespace"],
      buckets: LATENCY_BUCKETS,
      registers,
    });
    this.#placement = new prom.Gauge({
      name: "sm_placement",
      help: "Replicated namespaces, as of this leader's last pass: replicas (owners per shard " +
        "given), short_shards, zone_spread_violations, and for shuffle placement max_overlap " +
        "and shards_over_bound.",
      labelNames: ["namespace", "figure"],
      registers,
    });
    this.#ranges = new RangeMetrics(registers);
    this.#handover = new prom.Histogram({
      name: "sm_shard_handover_seconds",
      help: "From the commit giving a shard to an executor to that executor reporting it READY.",
      labelNames: ["namespace"],
      buckets: LATENCY_BUCKETS,
      registers,
    });
  }

  /** Records a unary RPC. */
  rpc(method: string, code: string, durationMs: number): void {
    this.#requests.inc({ method, code });
    this.#requestSeconds.observe({ method }, durationMs / 1000);
    if (OPERATOR_METHODS.has(method)) this.#operatorCalls.inc({ method, result: code });
  }

  /** Counts open watch streams. */
  watchStream(namespace: string, change: 1 | -1): void {
    this.#watchStreams.inc({ namespace }, change);
  }

  /** Records a store probe. */
  storeProbe(durationMs: number, ok: boolean): void {
    this.#storeProbes.inc({ result: ok ? "ok" : "error" });
    if (ok) this.#storeRoundTrip.observe(durationMs / 1000);
  }

  /** Records a rebalance pass. */
  pass(namespace: string, pass: PassObservation): void {
    this.#passes.inc({ namespace, changed: String(pass.changed) });
    if (pass.moves > 0) this.#moves.inc({ namespace }, pass.moves);
    for (const [reason, count] of Object.entries(pass.reasons ?? {})) {
      if (count > 0) this.#shardMoves.inc({ namespace, reason }, count);
    }
    for (const [outcome, count] of Object.entries(pass.handovers ?? {})) {
      const label = outcome === "timedOut" ? "timed_out" : outcome;
      if (count > 0) this.#handovers.inc({ namespace, outcome: label }, count);
    }
    for (const ms of pass.prepareMs ?? []) this.#prepareSeconds.observe({ namespace }, ms / 1000);
    if (pass.quarantined) this.#quarantines.inc({ namespace }, pass.quarantined);
    this.#passSeconds.observe({ namespace }, pass.durationMs / 1000);
    if (pass.ranges) this.#ranges.record(namespace, pass.ranges);
    const placement = pass.placement;
    if (placement) {
      const set = (figure: string, value: number | undefined) => {
        if (value !== undefined) this.#placement.set({ namespace, figure }, value);
      };
      set("replicas", placement.replicas);
      set("short_shards", placement.shortShards);
      set("zone_spread_violations", placement.zoneSpreadViolations);
      set("max_overlap", placement.maxOverlap);
      set("shards_over_bound", placement.shardsOverBound);
    }
  }

  /** Records how late this instance saw a change. */
  propagated(namespace: string, latencyMs: number): void {
    this.#propagation.observe({ namespace }, latencyMs / 1000);
  }

  /** Records a completed handover. */
  handedOver(namespace: string, latencyMs: number): void {
    this.#handover.observe({ namespace }, latencyMs / 1000);
  }

  /** Adds the gauges read from `manager` (whose clock is `options.clock`) at each scrape. */
  watch(manager: ShardManager, options: { readonly clock?: Clock } = {}): void {
    const registers = [this.registry];
    this.#namespaces = () => manager.routing.listNamespaces();
    // One scrape reads each namespace's stats once, however many gauges use them.
    let cache = { atMs: -Infinity, stats: new Map<string, NamespaceStats>() };
    const stats = (ns: string): NamespaceStats => {
      const now = performance.now();
      if (now - cache.atMs > 100) cache = { atMs: now, stats: new Map() };
      let found = cache.stats.get(ns);
      if (!found) cache.stats.set(ns, found = manager.routing.namespaceStats(ns));
      return found;
    };
    const perNamespace = (name: string, help: string, read: (ns: string) => number) =>
      namespaceGauge(registers, () => manager.routing.listNamespaces(), name, help, read);
    perNamespace(
      "sm_namespace_leader",
      "1 when this instance leads the namespace, else 0.",
      (ns) => manager.routing.isLeading(ns) ? 1 : 0,
    );
    perNamespace(
      "sm_shards_owned",
      "Shards with an owner.",
      (ns) => stats(ns).ownedShards,
    );
    perNamespace(
      "sm_shards_drained",
      "Shards drained by an operator.",
      (ns) => stats(ns).drainedShards,
    );
    perNamespace(
      "sm_shards_quarantined",
      "Poison shards the leader quarantined (drained with the reason quarantined), until undrained.",
      (ns) => stats(ns).quarantinedShards,
    );
    perNamespace(
      "sm_executor_drains",
      "Executor drains (by id or selector) in force.",
      (ns) => stats(ns).executorDrains,
    );
    perNamespace(
      "sm_heartbeat_lag_max_seconds",
      "Oldest heartbeat among live executors and executors that own shards.",
      (ns) => stats(ns).maxHeartbeatAgeMs / 1000,
    );
    perNamespace(
      "sm_executor_load_max",
      "Highest total reported load of a live executor.",
      (ns) => stats(ns).maxLoad,
    );
    perNamespace(
      "sm_executor_load_mean",
      "Mean total reported load of live executors.",
      (ns) => stats(ns).meanLoad,
    );
    new prom.Gauge({
      name: "sm_executors",
      help:
        "Executors by state: active, draining, drained, unknown_status, operator_drained, stale, " +
        "unknown (liveness unknown: this instance cannot read its store).",
      labelNames: ["namespace", "state"],
      registers,
      collect() {
        this.reset();
        for (const { name: namespace } of manager.routing.listNamespaces()) {
          const counts = stats(namespace).executors;
          for (const [state, n] of Object.entries(counts)) this.set({ namespace, state }, n);
        }
      },
    });
    new prom.Gauge({
      name: "sm_store_up",
      help: "1 when this instance can read its main store (its pulse answered within 1 s and " +
        "the last probe succeeded; 1 before the first probe), else 0.",
      registers,
      collect() {
        const { checkedAtMs, storeReachable } = manager.health.status;
        this.set(checkedAtMs === 0 || storeReachable ? 1 : 0);
      },
    });
    new prom.Gauge({
      name: "sm_store_reachable",
      help: "Like sm_store_up, but 0 before the first probe.",
      registers,
      collect() {
        this.set(manager.health.status.storeReachable ? 1 : 0);
      },
    });
    registerNamespaceGauges(this.registry, {
      listNamespaces: () => manager.routing.listNamespaces(),
      stats,
      watchSubscribers: (ns) => manager.routing.watchSubscribers(ns),
      brakeEngaged: (ns) => manager.routing.brake(ns) !== undefined,
    });
    registerAlertGauges(this.registry, {
      listNamespaces: () => manager.routing.listNamespaces(),
      heartbeatTtlMs: (ns) => manager.namespaces.policy(ns).budgets.heartbeatTtlMs,
      drainTimesMs: (ns) =>
        [...manager.namespaces.view(ns).executorDrains()].map((d) => d.createdAtMs),
      storeLostSinceMs: () => manager.routing.storeLostSince()?.now,
    }, { clock: options.clock ?? systemClock });
  }

  /** The text exposition format. */
  render(): Promise<string> {
    return this.registry.metrics();
  }

  /** Content type of {@linkcode render}'s output. */
  get contentType(): string {
    return this.registry.contentType;
  }
}
