/**
 * The spectator's errors. Each carries the fields a caller needs to act on it.
 *
 * @module
 */
import type { ErrorDetail } from "../../wire/error_details.ts";
import { classifyCallError } from "../common/classify.ts";
import { ShardManagerError } from "../common/errors.ts";

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
export class SpectatorNotReadyError extends ShardManagerError {
  /** The namespace watched. */
  readonly namespace: string;

  /** `detail` replaces the default explanation. */
  constructor(
    namespace: string,
    options: { detail?: string; cause?: unknown; code?: "NOT_READY" | "TIMEOUT" } = {},
  ) {
    const detail = options.detail ??
      "no snapshot has arrived yet; await spectator.start() or use owner(), which waits";
    const reason = options.cause instanceof Error ? ` (last error: ${options.cause.message})` : "";
    super(`Spectator for namespace "${namespace}" is not ready: ${detail}${reason}`, {
      code: options.code ?? "NOT_READY",
      cause: options.cause,
    });
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
export class SpectatorClosedError extends ShardManagerError {
  /** The namespace watched. */
  readonly namespace: string;

  /** A spectator of `namespace` was closed. */
  constructor(namespace: string) {
    super(`Spectator for namespace "${namespace}" is closed`, { code: "CLOSED" });
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
export class MissingMetadataError extends ShardManagerError {
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
      { code: "MISSING_METADATA" },
    );
    this.namespace = namespace;
    this.shardKey = shardKey;
    this.executorId = owner.executorId;
    this.metadataKey = metadataKey;
  }
}

/**
 * Asking the service for a shard's owner (the fallback on a miss) failed on
 * every address tried. Its `code`, `retryable`, `grpcCode` and `details` are
 * those of the last failure (its `cause`), classified: e.g. `UNAVAILABLE`
 * (grpcCode 14) while the service is down, `SHARD_DRAINED` with details
 * `{ type: "ShardDrainedError", namespace, shardKey }`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { ShardOwnerLookupError } from "./errors.ts";
 *
 * const error = new ShardOwnerLookupError("orders", "7", Object.assign(new Error("14 UNAVAILABLE"), { code: 14 }));
 * assert.equal(error.code, "UNAVAILABLE");
 * assert.equal(error.grpcCode, 14);
 * assert.equal(error.details, undefined);
 * ```
 */
export class ShardOwnerLookupError extends ShardManagerError {
  /** The namespace. */
  readonly namespace: string;
  /** The shard looked up. */
  readonly shardKey: string;

  /** Looking up `shardKey` failed with `cause`. */
  constructor(namespace: string, shardKey: string, cause: unknown) {
    const failure = classifyCallError(cause, { namespace, operation: "GetShardOwner" });
    super(
      `Cannot find the owner of shard "${shardKey}" in namespace "${namespace}": ${failure.message}`,
      {
        code: failure.code,
        retryable: failure.retryable,
        grpcCode: failure.grpcCode,
        details: failure.details,
        cause,
      },
    );
    this.namespace = namespace;
    this.shardKey = shardKey;
  }

  /** @deprecated Use `details` (the same value). */
  get detail(): ErrorDetail | undefined {
    return this.details;
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
export class AllOwnersFailedError extends ShardManagerError {
  /** The namespace. */
  readonly namespace: string;
  /** The shard key. */
  readonly shardKey: string;
  /** The executors tried, in order (empty when the shard had no owner). */
  readonly executorIds: readonly string[];
  /** Each owner's error, in the order tried. */
  readonly errors: readonly unknown[];

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
    super(`Shard "${shardKey}" of namespace "${namespace}": ${tried}`, {
      code: "ALL_OWNERS_FAILED",
      cause: errors.at(-1),
    });
    this.errors = errors;
    this.namespace = namespace;
    this.shardKey = shardKey;
    this.executorIds = executorIds;
  }
}
