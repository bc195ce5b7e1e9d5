/**
 * Recording doubles of a logger, a meter and a tracer for the SDKs' unit
 * tests (the fresh-project test uses the real OpenTelemetry SDK).
 *
 * @module
 */
import type { Logger } from "./logger.ts";
import type {
  Attributes,
  MeterLike,
  ObservableResultLike,
  SpanLike,
  TracerLike,
} from "./telemetry.ts";

/** One log line. */
export interface LogLine {
  readonly level: keyof Logger;
  readonly message: string;
  readonly context: Readonly<Record<string, unknown>> | undefined;
}

/** A logger that keeps its lines. */
export function recordingLogger(): { logger: Logger; lines: LogLine[] } {
  const lines: LogLine[] = [];
  const at =
    (level: keyof Logger) => (message: string, context?: Readonly<Record<string, unknown>>) =>
      void lines.push({ level, message, context });
  return {
    lines,
    logger: { debug: at("debug"), info: at("info"), warn: at("warn"), error: at("error") },
  };
}

/** One measurement. */
export interface Measurement {
  readonly name: string;
  readonly value: number;
  readonly attributes: Attributes | undefined;
}

/** A meter that keeps what it is given; `collect()` runs the gauges' callbacks. */
export function recordingMeter(): {
  meter: MeterLike;
  measurements: Measurement[];
  collect(): Measurement[];
  callbacks(): number;
} {
  const measurements: Measurement[] = [];
  const gauges = new Map<string, Set<(result: ObservableResultLike) => void>>();
  const record = (name: string) => (value: number, attributes?: Attributes) =>
    void measurements.push({ name, value, attributes });
  return {
    measurements,
    meter: {
      createHistogram: (name) => ({ record: record(name) }),
      createCounter: (name) => ({ add: record(name) }),
      createObservableGauge: (name) => {
        const set = gauges.get(name) ?? new Set();
        gauges.set(name, set);
        return {
          addCallback: (cb) => void set.add(cb),
          removeCallback: (cb) => void set.delete(cb),
        };
      },
    },
    collect() {
      const seen: Measurement[] = [];
      for (const [name, set] of gauges) {
        for (const cb of set) {
          cb({ observe: (value, attributes) => seen.push({ name, value, attributes }) });
        }
      }
      return seen;
    },
    callbacks: () => [...gauges.values()].reduce((n, set) => n + set.size, 0),
  };
}

/** One span. */
export interface RecordedSpan {
  readonly name: string;
  readonly attributes: Attributes | undefined;
  status: { code: number; message?: string } | undefined;
  ended: boolean;
}

/** A tracer that keeps its spans. */
export function recordingTracer(): { tracer: TracerLike; spans: RecordedSpan[] } {
  const spans: RecordedSpan[] = [];
  return {
    spans,
    tracer: {
      startSpan(name, options) {
        const recorded: RecordedSpan = {
          name,
          attributes: options?.attributes,
          status: undefined,
          ended: false,
        };
        spans.push(recorded);
        const span: SpanLike = {
          setStatus: (status) => recorded.status = status,
          recordException: () => {},
          end: () => recorded.ended = true,
        };
        return span;
      },
    },
  };
}
