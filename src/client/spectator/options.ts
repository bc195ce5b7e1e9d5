/**
 * The options of `createSpectator`, their defaults, and their validation.
 *
 * @module
 */
import type { grpc } from "../../wire/packages.ts";
import type { BackoffOptions } from "../common/backoff.ts";
import type { ConnectionOptions } from "../common/connection_options.ts";
import type { ObservabilityOptions } from "../common/observability_options.ts";
import { parseAddresses } from "../common/addresses.ts";
import { InvalidOptionsError } from "../common/errors.ts";
import { type SpectatorClock, systemClock } from "./clock.ts";
import type { NamespaceType, SpectatorTransport } from "./transport.ts";

/** Options of `createSpectator`. */
export interface SpectatorOptions extends ConnectionOptions, ObservabilityOptions {
  /** The namespace to watch. */
  readonly namespace: string;
  /**
   * The namespace's shard model. On a miss, `owner()` asks the service
   * (`GetShardOwner`, which creates the shard) only in an ephemeral
   * namespace; in a fixed one a miss means the shard has no owner right now.
   * @default {undefined} asked of the service (`ListNamespaces`) when the first snapshot arrives
   */
  readonly namespaceType?: NamespaceType;
  /** Delays between reconnect attempts (exponential, full jitter). @default {{ baseMs: 100, maxMs: 5000 }} */
  readonly backoff?: BackoffOptions;
  /** A stream that delivers no snapshot within this many ms is dropped for the next address. @default {10000} */
  readonly firstSnapshotTimeoutMs?: number;
  /** Deadline of each `GetShardOwner` and `ListNamespaces` call, in ms. @default {5000} */
  readonly callTimeoutMs?: number;
  /** More gRPC channel options (ignored with `transport`). @default {{}} */
  readonly channelOptions?: grpc.ChannelOptions;
  /** Replaces the gRPC transport, for tests. @default {undefined} gRPC */
  readonly transport?: SpectatorTransport;
  /** Timers and wall-clock time, for tests. @default {systemClock} */
  readonly clock?: SpectatorClock;
  /** Random numbers in [0, 1) for jitter and the first address, for tests. @default {Math.random} */
  readonly random?: () => number;
}

/** {@linkcode SpectatorOptions} with defaults applied. */
export interface ResolvedSpectatorOptions {
  /** See {@linkcode SpectatorOptions.addresses}. */
  readonly addresses: readonly string[];
  /** See {@linkcode SpectatorOptions.namespace}. */
  readonly namespace: string;
  /** See {@linkcode SpectatorOptions.namespaceType}. */
  readonly namespaceType: NamespaceType | undefined;
  /** See {@linkcode SpectatorOptions.backoff}. */
  readonly backoff: Required<BackoffOptions>;
  /** See {@linkcode SpectatorOptions.firstSnapshotTimeoutMs}. */
  readonly firstSnapshotTimeoutMs: number;
  /** See {@linkcode SpectatorOptions.callTimeoutMs}. */
  readonly callTimeoutMs: number;
  /** See {@linkcode SpectatorOptions.clock}. */
  readonly clock: SpectatorClock;
  /** See {@linkcode SpectatorOptions.random}. */
  readonly random: () => number;
}

/**
 * Checks `options` and fills in defaults. Throws an `InvalidOptionsError`
 * that names the option and the value given.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { resolveOptions } from "./options.ts";
 *
 * const resolved = resolveOptions({ addresses: ["127.0.0.1:7943"], namespace: "orders" });
 * assert.equal(resolved.backoff.maxMs, 5_000);
 * ```
 */
export function resolveOptions(options: SpectatorOptions): ResolvedSpectatorOptions {
  const { namespace } = options;
  // A custom transport gives addresses its own meaning: only a non-empty list is required.
  const addresses = options.transport === undefined
    ? parseAddresses(options.addresses)
    : typeof options.addresses === "string"
    ? [options.addresses]
    : [...(options.addresses ?? [])];
  if (addresses.length === 0 || addresses.some((a) => typeof a !== "string" || a === "")) {
    throw new InvalidOptionsError(
      "addresses",
      `addresses must be one or more non-empty strings, got ${show(options.addresses)}`,
    );
  }
  if (typeof namespace !== "string" || namespace === "") {
    throw new InvalidOptionsError(
      "namespace",
      `namespace must be a non-empty string, got ${show(namespace)}`,
    );
  }
  const type = options.namespaceType;
  if (type !== undefined && type !== "fixed" && type !== "ephemeral") {
    throw new InvalidOptionsError(
      "namespaceType",
      `namespaceType must be "fixed" or "ephemeral", got ${show(type)}`,
    );
  }
  const baseMs = positive("backoff.baseMs", options.backoff?.baseMs ?? 100);
  const maxMs = positive("backoff.maxMs", options.backoff?.maxMs ?? 5_000);
  if (maxMs < baseMs) {
    throw new InvalidOptionsError(
      "backoff.maxMs",
      `backoff.maxMs must be at least backoff.baseMs (${baseMs}), got ${maxMs}`,
    );
  }
  return {
    addresses,
    namespace,
    namespaceType: type,
    backoff: { baseMs, maxMs },
    firstSnapshotTimeoutMs: positive(
      "firstSnapshotTimeoutMs",
      options.firstSnapshotTimeoutMs ?? 10_000,
    ),
    callTimeoutMs: positive("callTimeoutMs", options.callTimeoutMs ?? 5_000),
    clock: options.clock ?? systemClock,
    random: options.random ?? Math.random,
  };
}

function positive(name: string, value: number): number {
  if (typeof value !== "number" || !Number.isFinite(value) || value <= 0) {
    throw new InvalidOptionsError(
      name,
      `${name} must be a positive number of milliseconds, got ${show(value)}`,
    );
  }
  return value;
}

function show(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}
