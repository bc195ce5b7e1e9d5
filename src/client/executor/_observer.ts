/**
 * The executor's logs, metrics and spans, fed from the points where a
 * heartbeat ends and a shard starts or stops, and from its events.
 *
 * @module
 */
import { failureCode, failureText } from "../common/failure_code.ts";
import { type Logger, resolveLogger } from "../common/logger.ts";
import type { ObservabilityOptions } from "../common/observability_options.ts";
import { OutageLog } from "../common/outage_log.ts";
import {
  type CounterLike,
  DURATION_BUCKETS,
  failSpan,
  type HistogramLike,
  type ObservableGaugeLike,
  type ObservableResultLike,
  resolveMeter,
  resolveTracer,
  type SpanLike,
  type TracerLike,
} from "../common/telemetry.ts";
import type { Clock } from "./clock.ts";
import { ProcessorTimeoutError } from "./errors.ts";
import type { ExecutorEvent, ReleaseReason } from "./types.ts";

/** Who is observed, and how. */
export interface ExecutorObserverOptions extends ObservabilityOptions {
  readonly namespace: string;
  readonly executorId: string;
  /** The configured addresses, named in log lines when an error does not say which one failed. */
  readonly addresses: readonly string[];
  readonly clock: Clock;
  /** How many processors run now. */
  readonly running: () => number;
}

interface Instruments {
  readonly heartbeat: HistogramLike;
  readonly failures: CounterLike;
  readonly start: HistogramLike;
  readonly stop: HistogramLike;
  readonly prepare: HistogramLike;
  readonly prepares: CounterLike;
  readonly running: ObservableGaugeLike;
}

interface Timing {
  readonly at: number;
  readonly span: SpanLike | undefined;
  failed?: unknown;
}

/** Metric names, units and what they count; documented in docs/sdk_executor.md. */
export const EXECUTOR_METRICS = {
  heartbeat: ["shard_manager.sdk.heartbeat.duration", "s", "Time a heartbeat took"],
  failures: ["shard_manager.sdk.heartbeat.failures", "{failure}", "Heartbeats that failed"],
  start: ["shard_manager.sdk.processor.start.duration", "s", "Time a processor took to start"],
  stop: ["shard_manager.sdk.processor.stop.duration", "s", "Time a processor took to stop"],
  prepare: [
    "shard_manager.sdk.processor.prepare.duration",
    "s",
    "Time a prepare hook took (warm handover)",
  ],
  prepares: [
    "shard_manager.sdk.processor.prepares",
    "{prepare}",
    "Prepare hooks by outcome: prepared, failed, timeout, cancelled",
  ],
  running: ["shard_manager.sdk.shards.running", "{shard}", "Processors running"],
} as const;

/** Logs, metrics and spans of one executor. */
export class ExecutorObserver {
  readonly #o: ExecutorObserverOptions;
  readonly #logger: Logger;
  readonly #outage: OutageLog;
  readonly #attributes: { readonly namespace: string };
  readonly #starts = new Map<string, Timing>();
  readonly #stops = new Map<string, Timing>();
  readonly #prepares = new Map<string, Timing>();
  readonly #failedShards = new Set<string>();
  #instruments: Instruments | undefined;
  #tracer: TracerLike | undefined;
  #joinSpan: SpanLike | undefined;
  #shutdownSpan: SpanLike | undefined;
  readonly #observe = (result: ObservableResultLike): void =>
    result.observe(this.#o.running(), this.#attributes);

  /** Checks the options (throwing `InvalidOptionsError`); reads no global yet. */
  constructor(options: ExecutorObserverOptions) {
    this.#o = options;
    this.#logger = resolveLogger(options.logger);
    if (options.meter) resolveMeter(options.meter);
    if (options.tracer) resolveTracer(options.tracer);
    this.#attributes = { namespace: options.namespace };
    this.#outage = new OutageLog({
      logger: this.#logger,
      clock: options.clock,
      subject: `Executor ${options.executorId} heartbeats (namespace ${
        JSON.stringify(options.namespace)
      })`,
      context: { namespace: options.namespace, executorId: options.executorId },
    });
  }

  /** The executor starts: resolves the meter and tracer (the global ones by default). */
  started(): void {
    const meter = resolveMeter(this.#o.meter);
    this.#tracer = resolveTracer(this.#o.tracer);
    if (meter !== undefined) {
      const make = <K extends keyof typeof EXECUTOR_METRICS>(key: K) => {
        const [name, unit, description] = EXECUTOR_METRICS[key];
        const advice = { explicitBucketBoundaries: [...DURATION_BUCKETS] };
        return [name, { unit, description, ...(unit === "s" ? { advice } : {}) }] as const;
      };
      this.#instruments = {
        heartbeat: meter.createHistogram(...make("heartbeat")),
        failures: meter.createCounter(...make("failures")),
        start: meter.createHistogram(...make("start")),
        stop: meter.createHistogram(...make("stop")),
        prepare: meter.createHistogram(...make("prepare")),
        prepares: meter.createCounter(...make("prepares")),
        running: meter.createObservableGauge(...make("running")),
      };
      this.#instruments.running.addCallback(this.#observe);
    }
    this.#joinSpan = this.#span("shard_manager.executor.start", {});
  }

  /** A heartbeat ended after `ms`: answered when `error` is undefined. */
  heartbeat(ms: number, error?: unknown): void {
    const failed = error !== undefined;
    const code = failed ? failureCode(error) : undefined;
    this.#instruments?.heartbeat.record(ms / 1000, {
      ...this.#attributes,
      outcome: failed ? "error" : "ok",
    });
    if (code !== undefined) this.#instruments?.failures.add(1, { ...this.#attributes, code });
    const address = this.#address(error);
    if (failed) return this.#outage.failed(error, address);
    this.#outage.succeeded(address);
    this.#joinSpan?.end();
    this.#joinSpan = undefined;
  }

  /** A processor's start begins (the first time, or again after a failed start). */
  starting(shardKey: string, fencingToken: string): void {
    const span = this.#span("shard_manager.shard.start", { shard: shardKey, fencingToken });
    this.#starts.set(shardKey, { at: this.#o.clock.now(), span });
  }

  /** A processor's stop begins. */
  stopping(shardKey: string, reason: ReleaseReason): void {
    const span = this.#span("shard_manager.shard.stop", { shard: shardKey, reason });
    this.#stops.set(shardKey, { at: this.#o.clock.now(), span });
  }

  /** `shutdown()` was called. */
  shuttingDown(): void {
    this.#shutdownSpan = this.#span("shard_manager.executor.shutdown", {});
  }

  /** Every event the executor emits. */
  event(event: ExecutorEvent): void {
    const context = () => ({ namespace: this.#o.namespace, executorId: this.#o.executorId });
    switch (event.type) {
      case "preparing": {
        const { shardKey, fencingToken } = event;
        const span = this.#span("shard_manager.shard.prepare", { shard: shardKey, fencingToken });
        this.#prepares.set(shardKey, { at: this.#o.clock.now(), span });
        this.#logger.debug(`Shard ${shardKey}: preparing (warm handover)`, {
          ...context(),
          ...event,
        });
        return;
      }
      case "prepared":
      case "prepare-cancelled": {
        const prepared = event.type === "prepared";
        const end = prepared ? {} : { outcome: "cancelled" };
        this.#endTiming(this.#prepares, event.shardKey, this.#instruments?.prepare, end);
        this.#instruments?.prepares.add(1, {
          ...this.#attributes,
          outcome: prepared ? "prepared" : "cancelled",
        });
        const what = prepared ? "prepared" : `preparation cancelled (${event.reason})`;
        this.#logger.debug(`Shard ${event.shardKey}: ${what}`, { ...context(), ...event });
        return;
      }
      case "started": {
        this.#failedShards.delete(event.shardKey);
        this.#endTiming(this.#starts, event.shardKey, this.#instruments?.start, {});
        this.#logger.debug(`Shard ${event.shardKey} started`, { ...context(), ...event });
        return;
      }
      case "processor-failed": {
        const { phase } = event;
        const timings = phase === "start"
          ? this.#starts
          : phase === "prepare"
          ? this.#prepares
          : this.#stops;
        if (phase === "prepare") {
          const timeout = event.error instanceof ProcessorTimeoutError;
          this.#instruments?.prepares.add(1, {
            ...this.#attributes,
            outcome: timeout ? "timeout" : "failed",
          });
        }
        if (phase !== "stop") {
          const histogram = this.#instruments?.[phase];
          this.#endTiming(timings, event.shardKey, histogram, { failed: event.error });
        } else {
          const timing = timings.get(event.shardKey);
          if (timing !== undefined) timing.failed = event.error;
        }
        // Once per shard until it starts: a failing start is retried at every heartbeat.
        if (this.#failedShards.has(event.shardKey)) return;
        this.#failedShards.add(event.shardKey);
        this.#logger.warn(
          `Shard ${event.shardKey}'s processor failed to ${event.phase}: ${
            failureText(event.error)
          }`,
          { ...context(), shardKey: event.shardKey, phase: event.phase, error: event.error },
        );
        return;
      }
      case "released": {
        this.#failedShards.delete(event.shardKey);
        const timing = this.#stops.get(event.shardKey);
        this.#endTiming(this.#stops, event.shardKey, this.#instruments?.stop, {
          reason: event.reason,
          ...(timing?.failed !== undefined ? { failed: timing.failed } : {}),
        });
        this.#logger.debug(`Shard ${event.shardKey} released: ${event.reason}`, {
          ...context(),
          ...event,
        });
        return;
      }
    }
  }

  /** The executor is closed: stops reporting the gauge and ends open spans. */
  closed(): void {
    this.#instruments?.running.removeCallback(this.#observe);
    if (this.#joinSpan) failSpan(this.#joinSpan, new Error("Shut down before a heartbeat answer"));
    this.#joinSpan = undefined;
    this.#shutdownSpan?.end();
    this.#shutdownSpan = undefined;
  }

  #endTiming(
    timings: Map<string, Timing>,
    shardKey: string,
    histogram: HistogramLike | undefined,
    end: { readonly reason?: ReleaseReason; readonly failed?: unknown; readonly outcome?: string },
  ): void {
    const timing = timings.get(shardKey);
    if (timing === undefined) return;
    timings.delete(shardKey);
    const failed = "failed" in end;
    histogram?.record((this.#o.clock.now() - timing.at) / 1000, {
      ...this.#attributes,
      outcome: end.outcome ?? (failed ? "error" : "ok"),
      ...(end.reason === undefined ? {} : { reason: end.reason }),
    });
    if (timing.span === undefined) return;
    if (failed) failSpan(timing.span, end.failed);
    else timing.span.end();
  }

  #span(name: string, extra: Readonly<Record<string, string>>): SpanLike | undefined {
    const tracer = this.#tracer;
    if (tracer === undefined) return undefined;
    const attributes: Record<string, string> = {
      "shard_manager.namespace": this.#o.namespace,
      "shard_manager.executor.id": this.#o.executorId,
    };
    for (const [key, value] of Object.entries(extra)) {
      attributes[`shard_manager.${key === "fencingToken" ? "fencing_token" : key}`] = value;
    }
    return tracer.startSpan(name, { attributes });
  }

  #address(error: unknown): string | undefined {
    const named = (error as { address?: unknown } | undefined)?.address;
    if (typeof named === "string") return named;
    return this.#o.addresses.length > 0 ? this.#o.addresses.join(" or ") : undefined;
  }
}
