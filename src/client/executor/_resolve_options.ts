/**
 * Validation and defaults of {@linkcode ExecutorOptions}.
 *
 * @module
 */
import { parseAddresses } from "../common/addresses.ts";
import { capacityMetadata, capacityProblem } from "../../shared/capacity.ts";
import { InvalidOptionsError } from "../common/errors.ts";
import { hostName } from "../common/host_name.ts";
import { type Clock, systemClock } from "./clock.ts";
import type { ExecutorOptions } from "./options.ts";
import { grpcHeartbeatTransport, type HeartbeatTransport } from "./transport.ts";
import type { PrepareHook, ProcessorFactory, UnreachablePolicy } from "./types.ts";

/** Options with every default applied. */
export interface ResolvedOptions {
  readonly namespace: string;
  readonly executorId: string;
  /** A random id of this executor's life, sent in every heartbeat (a restart sends a new one). */
  readonly incarnation: string;
  readonly metadata: Readonly<Record<string, string>>;
  readonly processor: ProcessorFactory;
  /** The warm handover hook, when given. */
  readonly prepare: PrepareHook<unknown> | undefined;
  readonly prepareTimeoutMs: number;
  readonly handoffGraceMs: number;
  readonly heartbeatIntervalMs: number;
  readonly heartbeatTimeoutMs: number;
  readonly startTimeoutMs: number;
  readonly stopTimeoutMs: number;
  readonly startRetryInitialMs: number;
  readonly startRetryMaxMs: number;
  readonly drainTimeoutMs: number;
  readonly onUnreachable: UnreachablePolicy;
  readonly assignmentHints: boolean;
  readonly eventBufferSize: number;
  readonly clock: Clock;
  readonly random: () => number;
  /** Creates the transport (not at validation, so bad options open no connection). */
  readonly transport: () => HeartbeatTransport;
}

const MAX_METADATA_KEYS = 32;
const MAX_METADATA_KEY_LENGTH = 128;

/** Checks `options` and fills in defaults; throws an `InvalidOptionsError` naming the option. */
export function resolveOptions<P>(options: ExecutorOptions<P>): ResolvedOptions {
  const { namespace, prepare } = options;
  // The executor hands a processor only what `prepare` returned (or undefined), so `P` holds.
  const processor = options.processor as ProcessorFactory;
  if (typeof namespace !== "string" || namespace === "") {
    throw new InvalidOptionsError(
      "namespace",
      `namespace must be a non-empty string, got ${JSON.stringify(namespace)}`,
    );
  }
  if (typeof processor !== "function") {
    throw new InvalidOptionsError(
      "processor",
      `processor must be a function, got ${typeof processor}`,
    );
  }
  if (prepare !== undefined && typeof prepare !== "function") {
    throw new InvalidOptionsError(
      "prepare",
      `prepare must be a function when given, got ${typeof prepare}`,
    );
  }
  // With a custom transport the addresses are not dialled: any value is accepted.
  const addresses = options.transport === undefined ? parseAddresses(options.addresses) : [];
  const executorId = options.executorId ?? defaultExecutorId();
  if (typeof executorId !== "string" || executorId === "") {
    throw new InvalidOptionsError(
      "executorId",
      `executorId must be a non-empty string, got ${JSON.stringify(executorId)}`,
    );
  }
  const capacity = options.capacity ?? {};
  const problem = typeof capacity === "object" && capacity !== null
    ? capacityProblem(capacity)
    : `capacity must be an object such as { shards: 100 }, got ${JSON.stringify(capacity)}`;
  if (problem !== undefined) throw new InvalidOptionsError("capacity", problem);
  const metadata = { ...options.metadata, ...capacityMetadata(capacity) };
  checkMetadata(metadata);
  const interval = positive("heartbeatIntervalMs", options.heartbeatIntervalMs, 1_000);
  const onUnreachable = options.onUnreachable ?? { mode: "keep" };
  if (onUnreachable.mode === "stop") {
    const { afterMs } = onUnreachable;
    if (typeof afterMs !== "number" || !Number.isFinite(afterMs) || afterMs <= 0) {
      throw new InvalidOptionsError(
        "onUnreachable.afterMs",
        `onUnreachable.afterMs must be a positive number of ms, got ${afterMs}`,
      );
    }
  } else if (onUnreachable.mode !== "keep") {
    throw new InvalidOptionsError(
      "onUnreachable.mode",
      `onUnreachable.mode must be "keep" or "stop", got ${JSON.stringify(onUnreachable)}`,
    );
  }
  const hints = options.assignmentHints ?? true;
  if (typeof hints !== "boolean") {
    throw new InvalidOptionsError(
      "assignmentHints",
      `assignmentHints must be true or false, got ${JSON.stringify(hints)}`,
    );
  }
  const bufferSize = positive("eventBufferSize", options.eventBufferSize, 256);
  if (!Number.isInteger(bufferSize)) {
    throw new InvalidOptionsError(
      "eventBufferSize",
      `eventBufferSize must be an integer, got ${bufferSize}`,
    );
  }
  const tls = {
    ...options.tls,
    ...(options.token === undefined ? {} : { token: options.token }),
  };
  const transport = options.transport;
  const retryInitial = positive("startRetryInitialMs", options.startRetryInitialMs, 1_000);
  const retryMax = positive("startRetryMaxMs", options.startRetryMaxMs, 60_000);
  if (retryMax < retryInitial) {
    throw new InvalidOptionsError(
      "startRetryMaxMs",
      `startRetryMaxMs must be at least startRetryInitialMs (${retryInitial}), got ${retryMax}`,
    );
  }
  return {
    namespace,
    executorId,
    incarnation: crypto.randomUUID(),
    metadata,
    processor,
    prepare,
    prepareTimeoutMs: positive("prepareTimeoutMs", options.prepareTimeoutMs, 60_000),
    handoffGraceMs: nonNegative(
      "handoffGraceMs",
      options.handoffGraceMs,
      prepare === undefined ? 0 : 100,
    ),
    heartbeatIntervalMs: interval,
    heartbeatTimeoutMs: positive(
      "heartbeatTimeoutMs",
      options.heartbeatTimeoutMs,
      Math.max(1_000, 2 * interval),
    ),
    startTimeoutMs: positive("startTimeoutMs", options.startTimeoutMs, 10_000),
    stopTimeoutMs: positive("stopTimeoutMs", options.stopTimeoutMs, 10_000),
    startRetryInitialMs: retryInitial,
    startRetryMaxMs: retryMax,
    drainTimeoutMs: positive("drainTimeoutMs", options.drainTimeoutMs, 10_000),
    onUnreachable,
    assignmentHints: hints,
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

function nonNegative(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== "number" || !Number.isFinite(value) || value < 0) {
    throw new InvalidOptionsError(
      name,
      `${name} must be 0 or a positive number of ms, got ${value}`,
    );
  }
  return value;
}

function positive(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== "number" || !Number.isFinite(value) || value <= 0) {
    throw new InvalidOptionsError(name, `${name} must be a positive number of ms, got ${value}`);
  }
  return value;
}

function checkMetadata(metadata: Record<string, string>): void {
  const keys = Object.keys(metadata);
  if (keys.length > MAX_METADATA_KEYS) {
    throw new InvalidOptionsError(
      "metadata",
      `metadata may have at most ${MAX_METADATA_KEYS} keys, got ${keys.length}`,
    );
  }
  for (const [key, value] of Object.entries(metadata)) {
    // Counted in UTF-8 bytes, as the service counts them.
    const bytes = new TextEncoder().encode(key).length;
    if (key === "" || bytes > MAX_METADATA_KEY_LENGTH) {
      throw new InvalidOptionsError(
        "metadata",
        `metadata keys must have 1 to ${MAX_METADATA_KEY_LENGTH} bytes (UTF-8), got ${
          JSON.stringify(key.slice(0, 40))
        } (${bytes} bytes)`,
      );
    }
    if (typeof value !== "string") {
      throw new InvalidOptionsError(
        "metadata",
        `metadata[${JSON.stringify(key)}] must be a string, got ${typeof value}`,
      );
    }
  }
}
