/**
 * Validation and defaults of {@linkcode ExecutorOptions}.
 *
 * @module
 */
import { hostName } from "../common/host_name.ts";
import { type Clock, systemClock } from "./clock.ts";
import type { ExecutorOptions } from "./options.ts";
import { grpcHeartbeatTransport, type HeartbeatTransport } from "./transport.ts";
import type { ProcessorFactory, UnreachablePolicy } from "./types.ts";

/** Options with every default applied. */
export interface ResolvedOptions {
  readonly namespace: string;
  readonly executorId: string;
  readonly metadata: Readonly<Record<string, string>>;
  readonly processor: ProcessorFactory;
  readonly heartbeatIntervalMs: number;
  readonly heartbeatTimeoutMs: number;
  readonly startTimeoutMs: number;
  readonly stopTimeoutMs: number;
  readonly drainTimeoutMs: number;
  readonly onUnreachable: UnreachablePolicy;
  readonly eventBufferSize: number;
  readonly clock: Clock;
  readonly random: () => number;
  /** Creates the transport (not at validation, so bad options open no connection). */
  readonly transport: () => HeartbeatTransport;
}

const MAX_METADATA_KEYS = 32;
const MAX_METADATA_KEY_LENGTH = 128;

/** Checks `options` and fills in defaults; throws `TypeError`/`RangeError` naming the option. */
export function resolveOptions(options: ExecutorOptions): ResolvedOptions {
  const { namespace, processor } = options;
  if (typeof namespace !== "string" || namespace === "") {
    throw new TypeError(`namespace must be a non-empty string, got ${JSON.stringify(namespace)}`);
  }
  if (typeof processor !== "function") {
    throw new TypeError(`processor must be a function, got ${typeof processor}`);
  }
  const addresses = typeof options.addresses === "string"
    ? [options.addresses]
    : [...(options.addresses ?? [])];
  if (options.transport === undefined) {
    if (addresses.length === 0 || addresses.some((a) => typeof a !== "string" || a === "")) {
      throw new RangeError(
        `addresses must name at least one host:port, got ${JSON.stringify(options.addresses)}`,
      );
    }
  }
  const executorId = options.executorId ?? defaultExecutorId();
  if (typeof executorId !== "string" || executorId === "") {
    throw new TypeError(`executorId must be a non-empty string, got ${JSON.stringify(executorId)}`);
  }
  const metadata = { ...options.metadata };
  checkMetadata(metadata);
  const interval = positive("heartbeatIntervalMs", options.heartbeatIntervalMs, 1_000);
  const onUnreachable = options.onUnreachable ?? { mode: "keep" };
  if (onUnreachable.mode === "stop") {
    const { afterMs } = onUnreachable;
    if (typeof afterMs !== "number" || !Number.isFinite(afterMs) || afterMs <= 0) {
      throw new RangeError(`onUnreachable.afterMs must be a positive number of ms, got ${afterMs}`);
    }
  } else if (onUnreachable.mode !== "keep") {
    throw new RangeError(
      `onUnreachable.mode must be "keep" or "stop", got ${JSON.stringify(onUnreachable)}`,
    );
  }
  const bufferSize = positive("eventBufferSize", options.eventBufferSize, 256);
  if (!Number.isInteger(bufferSize)) {
    throw new RangeError(`eventBufferSize must be an integer, got ${bufferSize}`);
  }
  const tls = {
    ...options.tls,
    ...(options.token === undefined ? {} : { token: options.token }),
  };
  const transport = options.transport;
  return {
    namespace,
    executorId,
    metadata,
    processor,
    heartbeatIntervalMs: interval,
    heartbeatTimeoutMs: positive(
      "heartbeatTimeoutMs",
      options.heartbeatTimeoutMs,
      Math.max(1_000, 2 * interval),
    ),
    startTimeoutMs: positive("startTimeoutMs", options.startTimeoutMs, 10_000),
    stopTimeoutMs: positive("stopTimeoutMs", options.stopTimeoutMs, 10_000),
    drainTimeoutMs: positive("drainTimeoutMs", options.drainTimeoutMs, 10_000),
    onUnreachable,
    eventBufferSize: bufferSize,
    clock: options.clock ?? systemClock,
    random: options.random ?? Math.random,
    transport: () => transport ?? grpcHeartbeatTransport(addresses, tls),
  };
}

/**
 * A readable id that operators can map to a host: `<hostname>-<8 random hex
 * digits>` (`executor-…` where the host name cannot be read, as under
 * Deno without `--allow-sys=hostname`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { defaultExecutorId } from "./_resolve_options.ts";
 *
 * assert.ok(/-[0-9a-f]{8}$/.test(defaultExecutorId()));
 * ```
 */
export function defaultExecutorId(): string {
  return `${hostName("executor")}-${crypto.randomUUID().slice(0, 8)}`;
}

function positive(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== "number" || !Number.isFinite(value) || value <= 0) {
    throw new RangeError(`${name} must be a positive number of ms, got ${value}`);
  }
  return value;
}

function checkMetadata(metadata: Record<string, string>): void {
  const keys = Object.keys(metadata);
  if (keys.length > MAX_METADATA_KEYS) {
    throw new RangeError(`metadata may have at most ${MAX_METADATA_KEYS} keys, got ${keys.length}`);
  }
  for (const [key, value] of Object.entries(metadata)) {
    // Counted in UTF-8 bytes, as the service counts them.
    const bytes = new TextEncoder().encode(key).length;
    if (key === "" || bytes > MAX_METADATA_KEY_LENGTH) {
      throw new RangeError(
        `metadata keys must have 1 to ${MAX_METADATA_KEY_LENGTH} bytes (UTF-8), got ${
          JSON.stringify(key.slice(0, 40))
        } (${bytes} bytes)`,
      );
    }
    if (typeof value !== "string") {
      throw new TypeError(`metadata[${JSON.stringify(key)}] must be a string, got ${typeof value}`);
    }
  }
}
