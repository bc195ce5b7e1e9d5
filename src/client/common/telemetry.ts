/**
 * OpenTelemetry without depending on it: the few shapes of the
 * `@opentelemetry/api` package the SDKs use, typed structurally (its
 * `Meter` and `Tracer` fit), and the meter and tracer the application
 * registered globally with that package, if any.
 *
 * The SDKs never import `@opentelemetry/api`. The API package keeps its
 * global providers on `globalThis[Symbol.for("opentelemetry.js.api.1")]`,
 * the key every copy of API version 1.x shares (so that two copies in one
 * process see the same providers); reading it costs nothing when the
 * application has no OpenTelemetry, needs no import map on Deno, and leaves
 * the package free of unanalyzable dynamic imports.
 *
 * @module
 */
import { InvalidOptionsError } from "./errors.ts";

/** Attributes of a measurement or span. */
export type Attributes = Readonly<Record<string, string | number | boolean>>;

/** Options of an instrument. */
export interface InstrumentOptions {
  /** What it measures. */
  readonly description?: string;
  /** Its unit, UCUM (`s`, `{shard}`). */
  readonly unit?: string;
  /** Hints to the SDK, e.g. a histogram's bucket boundaries. */
  readonly advice?: { readonly explicitBucketBoundaries?: number[] };
}

/**
 * Bucket boundaries of the SDKs' duration histograms, in seconds (the
 * OpenTelemetry default suits milliseconds): 1 ms to 10 s.
 */
export const DURATION_BUCKETS: readonly number[] = Object.freeze([
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
]);

/** A histogram, as `@opentelemetry/api`'s `Histogram`. */
export interface HistogramLike {
  /** Records one value. */
  record(value: number, attributes?: Attributes): void;
}

/** A counter, as `@opentelemetry/api`'s `Counter`. */
export interface CounterLike {
  /** Adds to the count. */
  add(value: number, attributes?: Attributes): void;
}

/** What an observable instrument's callback reports to. */
export interface ObservableResultLike {
  /** Reports one value. */
  observe(value: number, attributes?: Attributes): void;
}

/** An observable gauge, as `@opentelemetry/api`'s `ObservableGauge`. */
export interface ObservableGaugeLike {
  /** Called at each collection. */
  addCallback(callback: (result: ObservableResultLike) => void): void;
  /** Stops calling `callback`. */
  removeCallback(callback: (result: ObservableResultLike) => void): void;
}

/** The part of `@opentelemetry/api`'s `Meter` the SDKs use; pass `metrics.getMeter(...)`. */
export interface MeterLike {
  /** A histogram. */
  createHistogram(name: string, options?: InstrumentOptions): HistogramLike;
  /** A monotonic counter. */
  createCounter(name: string, options?: InstrumentOptions): CounterLike;
  /** A gauge read at each collection. */
  createObservableGauge(name: string, options?: InstrumentOptions): ObservableGaugeLike;
}

/** The part of `@opentelemetry/api`'s `Span` the SDKs use. */
export interface SpanLike {
  /** Sets the status; code 2 is ERROR. */
  setStatus(status: { code: number; message?: string }): unknown;
  /** Records an exception event. */
  recordException(exception: Error | string): void;
  /** Ends the span. */
  end(): void;
}

/** The part of `@opentelemetry/api`'s `Tracer` the SDKs use; pass `trace.getTracer(...)`. */
export interface TracerLike {
  /** Starts a span (a root span, or a child of the active context). */
  startSpan(name: string, options?: { attributes?: Attributes }): SpanLike;
}

/** The instrumentation scope the SDKs register under. */
export const INSTRUMENTATION_NAME = "@shard-manager/sdk";
/** This SDK's version, the instrumentation scope's version (packages/sdk/deno.json). */
export const SDK_VERSION = "0.2.0";

interface GlobalProviders {
  readonly metrics?: { getMeter(name: string, version?: string): MeterLike };
  readonly trace?: { getTracer(name: string, version?: string): TracerLike };
}

function providers(): GlobalProviders | undefined {
  const key = Symbol.for("opentelemetry.js.api.1");
  return (globalThis as Record<symbol, GlobalProviders | undefined>)[key];
}

/**
 * The meter to use: `given` if set (`false`: none), else the global meter
 * provider's meter when the application registered one with
 * `@opentelemetry/api`, else undefined (record nothing). Read it when the
 * SDK starts, after the application has set OpenTelemetry up.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { resolveMeter } from "./telemetry.ts";
 *
 * assert.equal(resolveMeter(false), undefined);
 * assert.equal(resolveMeter(undefined), undefined); // no OpenTelemetry in this process
 * ```
 */
export function resolveMeter(given: MeterLike | false | undefined): MeterLike | undefined {
  if (given !== undefined) return given === false ? undefined : checked("meter", given);
  return providers()?.metrics?.getMeter(INSTRUMENTATION_NAME, SDK_VERSION);
}

/**
 * The tracer to use, as {@linkcode resolveMeter} chooses the meter.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { resolveTracer } from "./telemetry.ts";
 *
 * assert.equal(resolveTracer(undefined), undefined); // no OpenTelemetry in this process
 * ```
 */
export function resolveTracer(given: TracerLike | false | undefined): TracerLike | undefined {
  if (given !== undefined) return given === false ? undefined : checked("tracer", given);
  return providers()?.trace?.getTracer(INSTRUMENTATION_NAME, SDK_VERSION);
}

const METHODS = {
  meter: ["createHistogram", "createCounter", "createObservableGauge"],
  tracer: ["startSpan"],
} as const;

function checked<T extends object>(option: keyof typeof METHODS, value: T): T {
  const missing = METHODS[option].filter((m) =>
    typeof (value as Record<string, unknown> | null)?.[m] !== "function"
  );
  if (missing.length > 0) {
    throw new InvalidOptionsError(
      option,
      `${option} must be an OpenTelemetry ${option === "meter" ? "Meter" : "Tracer"} ` +
        `(from @opentelemetry/api), missing ${missing.join(", ")}`,
    );
  }
  return value;
}

/** Ends `span` with an ERROR status carrying `error`. */
export function failSpan(span: SpanLike, error: unknown): void {
  const message = error instanceof Error ? error.message : String(error);
  span.recordException(error instanceof Error ? error : message);
  span.setStatus({ code: 2, message });
  span.end();
}
