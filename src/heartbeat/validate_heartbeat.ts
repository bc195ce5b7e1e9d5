/**
 * Validation of heartbeats, naming the field at fault.
 *
 * @module
 */
import { InvalidArgumentError } from "../core/errors.ts";
import type { ExecutorStatus, ShardReport } from "../core/types.ts";
import {
  MAX_EXECUTOR_ID_LENGTH,
  MAX_METADATA_KEY_LENGTH,
  MAX_METADATA_KEYS,
  MAX_METADATA_VALUE_BYTES,
  MAX_SHARD_KEY_LENGTH,
} from "./limits.ts";

/** A heartbeat as received, before validation (statuses are enum names or anything else). */
export interface RawHeartbeat {
  /** Namespace. */
  readonly namespace: string;
  /** Executor id. */
  readonly executorId: string;
  /** Status name, e.g. `EXECUTOR_STATUS_ACTIVE` or `ACTIVE`. */
  readonly status: string;
  /** Per-shard reports. */
  readonly reports: Readonly<Record<string, { readonly status: string; readonly load: number }>>;
  /** Executor metadata. */
  readonly metadata: Readonly<Record<string, string>>;
  /** Revision of the latest answer acted on (exclusive namespaces), as sent. */
  readonly appliedRevision?: number | string;
}

/** A validated heartbeat. */
export interface Heartbeat {
  /** Namespace. */
  readonly namespace: string;
  /** Executor id. */
  readonly executorId: string;
  /** Reported status. */
  readonly status: ExecutorStatus;
  /** Per-shard reports. */
  readonly reports: Readonly<Record<string, ShardReport>>;
  /** Executor metadata. */
  readonly metadata: Readonly<Record<string, string>>;
  /** Revision of the latest answer the executor acted on (exclusive namespaces; absent when 0). */
  readonly appliedRevision?: number;
}

const encoder = new TextEncoder();

/** Checks a shard key, naming `field` in the error. */
export function validateShardKey(key: string, field: string): void {
  if (key.length === 0) throw new InvalidArgumentError(field, "must not be empty");
  if (key.length > MAX_SHARD_KEY_LENGTH) {
    throw new InvalidArgumentError(
      field,
      `is ${key.length} characters; at most ${MAX_SHARD_KEY_LENGTH} are allowed`,
    );
  }
}

/** Checks an executor id. */
export function validateExecutorId(id: string, field = "executor_id"): void {
  if (id.length === 0) throw new InvalidArgumentError(field, "must not be empty");
  if (id.length > MAX_EXECUTOR_ID_LENGTH) {
    throw new InvalidArgumentError(
      field,
      `is ${id.length} characters; at most ${MAX_EXECUTOR_ID_LENGTH} are allowed`,
    );
  }
  // deno-lint-ignore no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(id)) {
    throw new InvalidArgumentError(
      field,
      `must not contain control characters, got ${JSON.stringify(id)}`,
    );
  }
}

function status<T extends string>(
  value: string,
  prefix: string,
  allowed: readonly T[],
  field: string,
): T {
  const name = value.startsWith(prefix) ? value.slice(prefix.length) : value;
  if ((allowed as readonly string[]).includes(name)) return name as T;
  throw new InvalidArgumentError(
    field,
    `must be one of ${allowed.map((a) => prefix + a).join(", ")}, got ${JSON.stringify(value)}`,
  );
}

/**
 * Validates a raw heartbeat, throwing `InvalidArgumentError` naming the field.
 *
 * @example
 * ```ts
 * import { validateHeartbeat } from "./validate_heartbeat.ts";
 * const hb = validateHeartbeat({
 *   namespace: "ns", executorId: "e1", status: "EXECUTOR_STATUS_ACTIVE", reports: {}, metadata: {},
 * });
 * console.assert(hb.status === "ACTIVE");
 * ```
 */
export function validateHeartbeat(raw: RawHeartbeat): Heartbeat {
  validateExecutorId(raw.executorId);
  const executorStatus = status<ExecutorStatus>(
    raw.status,
    "EXECUTOR_STATUS_",
    ["ACTIVE", "DRAINING", "DRAINED"],
    "status",
  );
  const keys = Object.keys(raw.metadata);
  if (keys.length > MAX_METADATA_KEYS) {
    throw new InvalidArgumentError(
      "metadata",
      `has ${keys.length} keys; at most ${MAX_METADATA_KEYS} are allowed`,
    );
  }
  for (const [key, value] of Object.entries(raw.metadata)) {
    if (key.length === 0) throw new InvalidArgumentError("metadata", "keys must not be empty");
    if (key.length > MAX_METADATA_KEY_LENGTH) {
      throw new InvalidArgumentError(
        `metadata[${JSON.stringify(key.slice(0, 32))}…]`,
        `key is ${key.length} characters; at most ${MAX_METADATA_KEY_LENGTH} are allowed`,
      );
    }
    const bytes = encoder.encode(value).length;
    if (bytes > MAX_METADATA_VALUE_BYTES) {
      throw new InvalidArgumentError(
        `metadata[${JSON.stringify(key)}]`,
        `value is ${bytes} bytes; at most ${MAX_METADATA_VALUE_BYTES} are allowed`,
      );
    }
  }
  const reports: Record<string, ShardReport> = {};
  for (const [key, report] of Object.entries(raw.reports)) {
    const field = `shard_status_reports[${JSON.stringify(key.slice(0, 64))}]`;
    validateShardKey(key, field);
    const shardStatus = status(
      report.status,
      "SHARD_STATUS_",
      ["READY", "DONE"] as const,
      `${field}.status`,
    );
    if (!Number.isFinite(report.load) || report.load < 0) {
      throw new InvalidArgumentError(
        `${field}.shard_load`,
        `must be a finite number >= 0, got ${report.load}`,
      );
    }
    reports[key] = { status: shardStatus, load: report.load };
  }
  return {
    namespace: raw.namespace,
    executorId: raw.executorId,
    status: executorStatus,
    reports,
    metadata: { ...raw.metadata },
    ...appliedRevisionOf(raw.appliedRevision),
  };
}

function appliedRevisionOf(raw: number | string | undefined): { appliedRevision?: number } {
  const revision = Number(raw ?? 0);
  if (!Number.isSafeInteger(revision) || revision < 0) {
    throw new InvalidArgumentError(
      "applied_revision",
      `must be a non-negative integer, got ${JSON.stringify(raw)}`,
    );
  }
  return revision > 0 ? { appliedRevision: revision } : {};
}
