/**
 * The spectator's errors. Each carries the fields a caller needs to act on it.
 *
 * @module
 */
import {
  decodeStatusDetails,
  type ErrorDetail,
  STATUS_DETAILS_KEY,
} from "../../wire/error_details.ts";

/**
 * A synchronous lookup before the first snapshot arrived, or `waitReady`
 * giving up. `cause` is the last connection error, when there was one.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { SpectatorNotReadyError } from "./errors.ts";
 *
 * const error = new SpectatorNotReadyError("orders");
 * assert.ok(error.message.includes("orders"));
 * ```
 */
export class SpectatorNotReadyError extends Error {
  /** The namespace watched. */
  readonly namespace: string;

  /** `detail` replaces the default explanation. */
  constructor(namespace: string, options: { detail?: string; cause?: unknown } = {}) {
    const detail = options.detail ??
      "no snapshot has arrived yet; await spectator.ready or use owner(), which waits";
    const reason = options.cause instanceof Error ? ` (last error: ${options.cause.message})` : "";
    super(`Spectator for namespace "${namespace}" is not ready: ${detail}${reason}`, {
      cause: options.cause,
    });
    this.name = "SpectatorNotReadyError";
    this.namespace = namespace;
  }
}

/**
 * A lookup on a spectator that was closed.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { SpectatorClosedError } from "./errors.ts";
 *
 * assert.equal(new SpectatorClosedError("orders").namespace, "orders");
 * ```
 */
export class SpectatorClosedError extends Error {
  /** The namespace watched. */
  readonly namespace: string;

  /** A spectator of `namespace` was closed. */
  constructor(namespace: string) {
    super(`Spectator for namespace "${namespace}" is closed`);
    this.name = "SpectatorClosedError";
    this.namespace = namespace;
  }
}

/**
 * The owner of a shard has no metadata under the key asked for, so there is
 * no address to route to.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { MissingMetadataError } from "./errors.ts";
 *
 * const error = new MissingMetadataError("orders", "7", { executorId: "exec-1", metadata: {} }, "address");
 * assert.equal(error.executorId, "exec-1");
 * ```
 */
export class MissingMetadataError extends Error {
  /** The namespace. */
  readonly namespace: string;
  /** The shard looked up. */
  readonly shardKey: string;
  /** Its owner. */
  readonly executorId: string;
  /** The metadata key that is missing. */
  readonly metadataKey: string;

  /** `owner` owns `shardKey` but reported no `metadataKey`. */
  constructor(
    namespace: string,
    shardKey: string,
    owner: { executorId: string; metadata: Readonly<Record<string, string>> },
    metadataKey: string,
  ) {
    const keys = Object.keys(owner.metadata).map((k) => JSON.stringify(k)).join(", ") || "none";
    super(
      `Executor "${owner.executorId}", owner of shard "${shardKey}" in namespace "${namespace}", ` +
        `has no metadata "${metadataKey}" (its metadata keys: ${keys})`,
    );
    this.name = "MissingMetadataError";
    this.namespace = namespace;
    this.shardKey = shardKey;
    this.executorId = owner.executorId;
    this.metadataKey = metadataKey;
  }
}

/**
 * Asking the service for a shard's owner (the fallback on a miss) failed on
 * every address tried. `code` is the gRPC status code of the last failure,
 * when there was one; `cause` is that failure. `detail` is the typed error
 * detail the service attached to it (a `grpc-status-details-bin` trailer), if
 * any: the shard is drained, unknown, or the namespace is unknown or at its
 * shard cap.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { ShardOwnerLookupError } from "./errors.ts";
 *
 * const error = new ShardOwnerLookupError("orders", "7", Object.assign(new Error("14 UNAVAILABLE"), { code: 14 }));
 * assert.equal(error.code, 14);
 * assert.equal(error.detail, undefined);
 * ```
 */
export class ShardOwnerLookupError extends Error {
  /** The namespace. */
  readonly namespace: string;
  /** The shard looked up. */
  readonly shardKey: string;
  /** gRPC status code of the failure (14 UNAVAILABLE, 5 NOT_FOUND, 9 FAILED_PRECONDITION, ...). */
  readonly code: number | undefined;
  /** The failure's typed detail, e.g. `{ type: "ShardDrainedError", namespace, shardKey }`. */
  readonly detail: ErrorDetail | undefined;

  /** Looking up `shardKey` failed with `cause`. */
  constructor(namespace: string, shardKey: string, cause: unknown) {
    const message = cause instanceof Error ? cause.message : String(cause);
    super(
      `Cannot find the owner of shard "${shardKey}" in namespace "${namespace}": ${message}`,
      { cause },
    );
    this.name = "ShardOwnerLookupError";
    this.namespace = namespace;
    this.shardKey = shardKey;
    const code = (cause as { code?: unknown } | null)?.code;
    this.code = typeof code === "number" ? code : undefined;
    this.detail = detailOf(cause);
  }
}

/** The typed detail in a gRPC error's trailers; undefined when absent or undecodable. */
function detailOf(cause: unknown): ErrorDetail | undefined {
  const metadata = (cause as { metadata?: { get?: (key: string) => unknown[] } } | null)?.metadata;
  const bytes = metadata?.get?.(STATUS_DETAILS_KEY)?.[0];
  if (!(bytes instanceof Uint8Array)) return undefined;
  try {
    return decodeStatusDetails(bytes).detail;
  } catch {
    return undefined; // a malformed trailer leaves the code and message to go by
  }
}

/**
 * Every owner of a shard failed an attempt made through `tryOwners`.
 * `errors` holds each owner's error, in the order tried.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { AllOwnersFailedError } from "./errors.ts";
 *
 * const error = new AllOwnersFailedError("orders", "7", ["a", "b"], [new Error("x"), new Error("y")]);
 * assert.equal(error.errors.length, 2);
 * assert.ok(error.message.includes("a, b"));
 * ```
 */
export class AllOwnersFailedError extends AggregateError {
  /** The namespace. */
  readonly namespace: string;
  /** The shard key. */
  readonly shardKey: string;
  /** The executors tried, in order (empty when the shard had no owner). */
  readonly executorIds: readonly string[];

  /** Attempts on `executorIds` for `shardKey` failed with `errors`. */
  constructor(
    namespace: string,
    shardKey: string,
    executorIds: readonly string[],
    errors: readonly unknown[],
  ) {
    const tried = executorIds.length === 0
      ? "it has no owner"
      : `every owner failed (${executorIds.join(", ")})`;
    super(errors, `Shard "${shardKey}" of namespace "${namespace}": ${tried}`);
    this.name = "AllOwnersFailedError";
    this.namespace = namespace;
    this.shardKey = shardKey;
    this.executorIds = executorIds;
  }
}
