/**
 * Named domain errors. Each carries the offending values as fields; the gRPC
 * transport maps them to status codes in one place (`status_map.ts`).
 *
 * @module
 */

/** Base class of every domain error, so the transport can tell them from bugs. */
export class ShardManagerError extends Error {
  /** Builds an error with a message and an optional cause. */
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = new.target.name;
  }
}

/** A request field is missing or malformed (gRPC INVALID_ARGUMENT). */
export class InvalidArgumentError extends ShardManagerError {
  /** The request field at fault, e.g. `metadata["zone"]`. */
  readonly field: string;
  /** Names the field and says what is wrong with it. */
  constructor(field: string, problem: string) {
    super(`Invalid ${field}: ${problem}`);
    this.field = field;
  }
}

/** The namespace is not configured (gRPC NOT_FOUND). */
export class NamespaceNotFoundError extends ShardManagerError {
  /** The unknown namespace. */
  readonly namespace: string;
  /** Names the unknown namespace. */
  constructor(namespace: string) {
    super(`Namespace ${JSON.stringify(namespace)} not found`);
    this.namespace = namespace;
  }
}

/** A namespace of that name exists already (gRPC ALREADY_EXISTS). */
export class NamespaceExistsError extends ShardManagerError {
  /** The namespace's name. */
  readonly namespace: string;
  /** Names the namespace and where its definition comes from. */
  constructor(namespace: string, source: string) {
    super(
      `Namespace ${JSON.stringify(namespace)} exists already (defined by ${
        source === "file" ? "the configuration file" : "the API"
      }); use update to change it`,
    );
    this.namespace = namespace;
  }
}

/** The shard does not exist in the namespace (gRPC NOT_FOUND). */
export class ShardNotFoundError extends ShardManagerError {
  /** Namespace asked. */
  readonly namespace: string;
  /** The unknown shard key. */
  readonly shardKey: string;
  /** Names the shard and namespace. */
  constructor(namespace: string, shardKey: string) {
    super(`Shard ${JSON.stringify(shardKey)} not found in namespace ${JSON.stringify(namespace)}`);
    this.namespace = namespace;
    this.shardKey = shardKey;
  }
}

/** The executor is not known in the namespace (gRPC NOT_FOUND). */
export class ExecutorNotFoundError extends ShardManagerError {
  /** Namespace asked. */
  readonly namespace: string;
  /** The unknown executor id. */
  readonly executorId: string;
  /** Names the executor and namespace. */
  constructor(namespace: string, executorId: string) {
    super(
      `Executor ${JSON.stringify(executorId)} not found in namespace ${JSON.stringify(namespace)}`,
    );
    this.namespace = namespace;
    this.executorId = executorId;
  }
}

/** The shard is drained by an operator and has no owner (gRPC FAILED_PRECONDITION). */
export class ShardDrainedError extends ShardManagerError {
  /** Namespace of the shard. */
  readonly namespace: string;
  /** The drained shard key. */
  readonly shardKey: string;
  /** Names the drained shard. */
  constructor(namespace: string, shardKey: string) {
    super(
      `Shard ${JSON.stringify(shardKey)} in namespace ${
        JSON.stringify(namespace)
      } is drained; undrain it to route to it`,
    );
    this.namespace = namespace;
    this.shardKey = shardKey;
  }
}

/** No executor can take the shard right now (gRPC UNAVAILABLE; retry later). */
export class NoOwnerError extends ShardManagerError {
  /** Namespace of the shard. */
  readonly namespace: string;
  /** The shard without an owner. */
  readonly shardKey: string;
  /** Says why the shard has no owner. */
  constructor(namespace: string, shardKey: string, reason: string) {
    super(
      `Shard ${JSON.stringify(shardKey)} in namespace ${
        JSON.stringify(namespace)
      } has no owner: ${reason}`,
    );
    this.namespace = namespace;
    this.shardKey = shardKey;
  }
}

/** The store could not be reached or did not answer in time (gRPC UNAVAILABLE). */
export class StoreUnavailableError extends ShardManagerError {}

/** A leader's write was refused because another instance has since taken over. */
export class FencedError extends ShardManagerError {
  /** Namespace whose leadership was lost. */
  readonly namespace: string;
  /** Names the namespace whose write was fenced off. */
  constructor(namespace: string, detail: string) {
    super(`Leadership of namespace ${JSON.stringify(namespace)} was lost: ${detail}`);
    this.namespace = namespace;
  }
}

/** The service is shutting down (gRPC UNAVAILABLE). */
export class ShuttingDownError extends ShardManagerError {
  /** A fixed message. */
  constructor() {
    super("The service is shutting down");
  }
}

/** The caller gave no identity, or one the service does not accept (gRPC UNAUTHENTICATED). */
export class UnauthenticatedError extends ShardManagerError {}

/** The caller's identity lacks the role the call needs (gRPC PERMISSION_DENIED). */
export class PermissionDeniedError extends ShardManagerError {}
/**
 * A per-namespace capacity is used up, e.g. the cap on ephemeral shards
 * (gRPC RESOURCE_EXHAUSTED; retry once capacity is freed).
 */
export class ResourceExhaustedError extends ShardManagerError {
  /** Namespace whose capacity is used up. */
  readonly namespace: string;
  /** The limit reached, e.g. `maxShards`. */
  readonly limit: string;
  /** Names the namespace, the limit and what was asked. */
  constructor(namespace: string, limit: string, detail: string) {
    super(`Namespace ${JSON.stringify(namespace)} is at its ${limit}: ${detail}`);
    this.namespace = namespace;
    this.limit = limit;
  }
}

/**
 * An ephemeral namespace is at its shard cap (`maxShards`), so a new shard
 * cannot be created (gRPC RESOURCE_EXHAUSTED, with upstream Cadence's
 * `EphemeralShardLimitExceededError` detail).
 */
export class EphemeralShardLimitExceededError extends ResourceExhaustedError {
  /** The cap. */
  readonly maxLimit: number;
  /** Shards counted against the cap when the new one was refused. */
  readonly currentValue: number;
  /** Names the namespace, the cap and what was asked. */
  constructor(namespace: string, maxLimit: number, currentValue: number, detail: string) {
    super(namespace, `shard cap of ${maxLimit} (maxShards)`, detail);
    this.maxLimit = maxLimit;
    this.currentValue = currentValue;
  }
}

/**
 * An operator action cannot be done in the namespace's current state, e.g. a
 * tenant move to a drained cell (gRPC FAILED_PRECONDITION).
 */
export class PreconditionError extends ShardManagerError {
  /** Namespace acted on. */
  readonly namespace: string;
  /** Says what was refused and why. */
  constructor(namespace: string, message: string) {
    super(message);
    this.namespace = namespace;
  }
}

/**
 * Only the namespace's leader can do this, and this instance does not lead it
 * (gRPC FAILED_PRECONDITION: send the call to the leading instance).
 */
export class NotLeaderError extends ShardManagerError {
  /** Namespace asked. */
  readonly namespace: string;
  /** Instance id of the leader, if one is known. */
  readonly leader: string | undefined;
  /** Names the namespace and the leading instance (with its gRPC address, when known). */
  constructor(namespace: string, leader: string | undefined, address?: string) {
    super(
      `This instance does not lead namespace ${JSON.stringify(namespace)}; ${
        leader === undefined
          ? "no leader is known yet, retry shortly"
          : `instance ${JSON.stringify(leader)}${
            address ? ` at ${address}` : ""
          } does, send the call to it`
      }`,
    );
    this.namespace = namespace;
    this.leader = leader;
  }
}

/** What kind of outcome a domain error is; each transport maps kinds to its own codes. */
export type ErrorKind =
  | "invalid_argument"
  | "resource_exhausted"
  | "not_found"
  | "already_exists"
  | "failed_precondition"
  | "unavailable"
  | "aborted"
  | "unauthenticated"
  | "permission_denied";

const KINDS: readonly [new (...args: never[]) => Error, ErrorKind][] = [
  [InvalidArgumentError, "invalid_argument"],
  [NamespaceNotFoundError, "not_found"],
  [NamespaceExistsError, "already_exists"],
  [ShardNotFoundError, "not_found"],
  [ExecutorNotFoundError, "not_found"],
  [ShardDrainedError, "failed_precondition"],
  [ResourceExhaustedError, "resource_exhausted"],
  [PreconditionError, "failed_precondition"],
  [NotLeaderError, "failed_precondition"],
  [NoOwnerError, "unavailable"],
  [StoreUnavailableError, "unavailable"],
  [ShuttingDownError, "unavailable"],
  [FencedError, "aborted"],
  [UnauthenticatedError, "unauthenticated"],
  [PermissionDeniedError, "permission_denied"],
];

/**
 * The kind of a domain error; undefined for anything else (including a
 * `ShardManagerError` subclass no kind is listed for).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { errorKind, ShardNotFoundError } from "./errors.ts";
 *
 * assert.equal(errorKind(new ShardNotFoundError("ns", "7")), "not_found");
 * assert.equal(errorKind(new Error("bug")), undefined);
 * ```
 */
export function errorKind(error: unknown): ErrorKind | undefined {
  for (const [type, kind] of KINDS) if (error instanceof type) return kind;
  return undefined;
}
