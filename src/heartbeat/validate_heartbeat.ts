/**
 * Validation of heartbeats, naming the field at fault.
 *
 * @module
 */
import { InvalidArgumentError, NamespaceNotFoundError } from "../core/errors.ts";
import { sharedReport, withTopKeys } from "../core/shared_reports.ts";
import type { ExecutorStatus, KeyLoad, ShardReport, ShardReports } from "../core/types.ts";
import {
  DEFAULT_REQUEST_LIMITS,
  MAX_REPORTS_BYTES,
  type RequestLimits,
} from "../limits/request_limits.ts";
import {
  jsonBytes,
  preview,
  validateExecutorId,
  validateMetadata,
  validateNamespace,
  validateShardKey,
} from "../limits/validate_request.ts";
import { metadataCapacityProblem } from "../shared/capacity.ts";

export { validateExecutorId, validateShardKey } from "../limits/validate_request.ts";

/** One shard's report as received: a status name or enum number, and a load. */
export interface RawReport {
  readonly status: string | number;
  readonly load: number;
  /** Consecutive failed starts (a wire addition; absent or 0 from most clients). */
  readonly failedStarts?: number;
  /** Key-range namespaces: the slice's heaviest keys (a wire addition). */
  readonly topKeys?: readonly { readonly key: string; readonly load: number }[];
}

/** Most top keys one slice's report may carry. */
export const MAX_TOP_KEYS = 32;
/** Longest top key, in UTF-16 code units. */
export const MAX_TOP_KEY_LENGTH = 256;

/** A heartbeat's reports as received. */
export type RawReports = ReadonlyMap<string, RawReport> | Readonly<Record<string, RawReport>>;

/**
 * A heartbeat as received, before validation. Statuses are enum names, or
 * numbers for values the contract does not name (proto3 enums are open, and
 * the loader passes unknown values through as numbers).
 */
export interface RawHeartbeat {
  /** Namespace. */
  readonly namespace: string;
  /** Executor id. */
  readonly executorId: string;
  /** Status name, e.g. `EXECUTOR_STATUS_ACTIVE` or `ACTIVE`, or an enum number. */
  readonly status: string | number;
  /** Per-shard reports, by shard key: a map (the direct reader's) or a plain object. */
  readonly reports: RawReports;
  /**
   * The reports as encoded on the wire, when the transport kept them: equal
   * bytes mean equal reports, so ingestion may reuse what it made of the same
   * bytes before and never read `reports` (which may then be decoded lazily).
   */
  readonly reportsBytes?: Uint8Array;
  /** Executor metadata. */
  readonly metadata: Readonly<Record<string, string>>;
  /** Revision of the latest answer acted on (exclusive namespaces), as sent. */
  readonly appliedRevision?: number | string;
  /** The executor understands warm handover (`warm_handover`). */
  readonly warmHandover?: boolean;
  /** The executor process's id for this life (`incarnation`), as sent. */
  readonly incarnation?: string;
}

/** A validated heartbeat. */
export interface Heartbeat {
  /** Namespace. */
  readonly namespace: string;
  /** Executor id. */
  readonly executorId: string;
  /** Reported status. */
  readonly status: ExecutorStatus;
  /** For an `UNKNOWN` status: the enum number sent. */
  readonly statusNumber?: number;
  /** Per-shard reports. */
  readonly reports: ShardReports;
  /** Executor metadata. */
  readonly metadata: Readonly<Record<string, string>>;
  /** Revision of the latest answer the executor acted on (exclusive namespaces; absent when 0). */
  readonly appliedRevision?: number;
  /** The executor understands warm handover: its PREPARED reports mean PREPARED. */
  readonly warmHandover?: true;
  /** The executor process's id for this life (absent when not sent). */
  readonly incarnation?: string;
}

/**
 * An enum value: its name among `known` (numbered from 1, as in the contract),
 * `undefined` for a number the contract does not name, which the caller
 * treats as open-enum input. The zero value INVALID means "not set" and is
 * refused, as is any name that is not in the contract (names only come from
 * the contract; the wire sends unknown values as numbers).
 */
function enumValue<T extends string>(
  value: unknown,
  prefix: string,
  known: readonly T[],
  field: string,
): T | undefined {
  if (typeof value === "number" && Number.isInteger(value) && value !== 0) {
    return value >= 1 && value <= known.length ? known[value - 1] : undefined;
  }
  const name = typeof value !== "string"
    ? undefined
    : value.startsWith(prefix)
    ? value.slice(prefix.length)
    : value;
  if (name !== undefined && (known as readonly string[]).includes(name)) return name as T;
  throw new InvalidArgumentError(
    field,
    `must be one of ${known.map((a) => prefix + a).join(", ")} or a value this server does ` +
      `not know (not INVALID, which means unset), got ${JSON.stringify(value)}`,
  );
}

/** Executor statuses in the contract's order (1, 2, 3). */
const EXECUTOR_STATUSES = ["ACTIVE", "DRAINING", "DRAINED"] as const;
/** Shard statuses in the contract's order (1, 2, 3, 4). */
const SHARD_STATUSES = ["READY", "DONE", "PREPARED", "NOT_RUNNING"] as const;

/** Options of {@linkcode validateHeartbeat}. */
export interface ValidateHeartbeatOptions {
  /**
   * Whether this instance serves the namespace. An unknown one fails with
   * `NamespaceNotFoundError`, after its name is checked and before anything
   * else is. @default {every well-formed name is known}
   */
  readonly knownNamespace?: (namespace: string) => boolean;
  /**
   * The reports, already validated: `raw.reports` is then neither read nor
   * checked (ingestion passes what it made of the same `reportsBytes` before).
   */
  readonly reports?: ShardReports;
}

/**
 * Validates a whole raw heartbeat, namespace included, throwing
 * `InvalidArgumentError` naming the first field at fault (the namespace, then
 * the executor id, status, metadata and reports), or `NamespaceNotFoundError`.
 * An executor status number this server does not know becomes `UNKNOWN`
 * (keeping the number), an unknown shard status number counts as READY; the
 * zero value INVALID of either is refused.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { validateHeartbeat } from "./validate_heartbeat.ts";
 *
 * const hb = validateHeartbeat({
 *   namespace: "ns", executorId: "e1", status: "EXECUTOR_STATUS_ACTIVE", reports: {}, metadata: {},
 * });
 * assert.equal(hb.status, "ACTIVE");
 * const newer = validateHeartbeat({
 *   namespace: "ns", executorId: "e1", status: 7, reports: { s: { status: 9, load: 1 } }, metadata: {},
 * });
 * assert.equal(newer.status, "UNKNOWN");
 * assert.equal(newer.statusNumber, 7);
 * assert.equal(newer.reports.get("s")?.status, "READY");
 * assert.throws(
 *   () => validateHeartbeat({ ...hb, namespace: "" }),
 *   /Invalid namespace: must not be empty/,
 * );
 * ```
 *
 * @param raw The heartbeat as decoded.
 * @param limits Request limits. @default {DEFAULT_REQUEST_LIMITS}
 * @param options Which namespaces exist.
 */
export function validateHeartbeat(
  raw: RawHeartbeat,
  limits: RequestLimits = DEFAULT_REQUEST_LIMITS,
  options: ValidateHeartbeatOptions = {},
): Heartbeat {
  if (typeof raw.namespace !== "string") {
    throw new InvalidArgumentError("namespace", `must be a string, got ${typeof raw.namespace}`);
  }
  validateNamespace(raw.namespace);
  if (options.knownNamespace?.(raw.namespace) === false) {
    throw new NamespaceNotFoundError(raw.namespace);
  }
  validateExecutorId(raw.executorId);
  const known = enumValue(raw.status, "EXECUTOR_STATUS_", EXECUTOR_STATUSES, "status");
  const executorStatus: ExecutorStatus = known ?? "UNKNOWN";
  validateMetadata(raw.metadata, "metadata", limits);
  // A declared capacity is placement input: a value placement cannot read is refused.
  const capacity = metadataCapacityProblem(raw.metadata);
  if (capacity !== undefined) throw new InvalidArgumentError("metadata", capacity);
  return {
    namespace: raw.namespace,
    executorId: raw.executorId,
    status: executorStatus,
    ...(known === undefined ? { statusNumber: raw.status as number } : {}),
    reports: options.reports ?? validateReports(raw.reports, limits, raw.warmHandover === true),
    metadata: { ...raw.metadata },
    ...appliedRevisionOf(raw.appliedRevision),
    ...(raw.warmHandover === true ? { warmHandover: true } : {}),
    ...incarnationOf(raw.incarnation),
  };
}

/** Most characters of an incarnation id kept (an SDK sends a UUID: 36). */
const MAX_INCARNATION = 64;

/** A sent incarnation id; an empty or oversized one is refused, none is absent. */
function incarnationOf(value: unknown): { incarnation?: string } {
  if (value === undefined || value === "") return {};
  if (typeof value !== "string" || value.length > MAX_INCARNATION) {
    throw new InvalidArgumentError(
      "incarnation",
      `must be a string of at most ${MAX_INCARNATION} characters, got ${
        typeof value === "string" ? `${value.length} characters` : typeof value
      }`,
    );
  }
  return { incarnation: value };
}

/**
 * Checks a heartbeat's reports against `limits`; returns them with status
 * names. Status 3 is PREPARED only from an executor that sent `warm_handover`;
 * from any other it is NOT_RUNNING, the value's meaning before warm handover.
 */
function validateReports(raw: RawReports, limits: RequestLimits, warm: boolean): ShardReports {
  const entries = raw instanceof Map
    ? [...(raw as ReadonlyMap<string, RawReport>).entries()]
    : Object.entries(raw as Readonly<Record<string, RawReport>>);
  if (entries.length > limits.maxShardReportsPerHeartbeat) {
    throw new InvalidArgumentError(
      "shard_status_reports",
      `has ${entries.length} reports; at most ${limits.maxShardReportsPerHeartbeat} are ` +
        `allowed (limits.maxShardReportsPerHeartbeat)`,
    );
  }
  checkReportsSize(entries);
  const reports = new Map<string, ShardReport>();
  // A thousand reports a heartbeat: the field's name is written only for an error.
  const field = (key: string) => `shard_status_reports[${JSON.stringify(key.slice(0, 64))}]`;
  // A key of at most maxShardKeyLength / 3 UTF-16 units cannot exceed the limit in UTF-8.
  const shortKey = Math.floor(limits.maxShardKeyLength / 3);
  for (const [key, report] of entries) {
    if (key.length === 0 || key.length > shortKey) validateShardKey(key, field(key), limits);
    // A shard status this server does not know is taken as READY: the shard keeps running.
    let shardStatus = report.status === "SHARD_STATUS_READY"
      ? "READY"
      : report.status === "SHARD_STATUS_DONE"
      ? "DONE"
      : enumValue(report.status, "SHARD_STATUS_", SHARD_STATUSES, `${field(key)}.status`) ??
        "READY";
    if (shardStatus === "PREPARED" && !warm) shardStatus = "NOT_RUNNING";
    if (!Number.isFinite(report.load) || report.load < 0) {
      throw new InvalidArgumentError(
        `${field(key)}.shard_load`,
        `must be a finite number >= 0, got ${report.load}`,
      );
    }
    const failedStarts = report.failedStarts ?? 0;
    if (!Number.isSafeInteger(failedStarts) || failedStarts < 0) {
      throw new InvalidArgumentError(
        `${field(key)}.failed_starts`,
        `must be an integer >= 0, got ${failedStarts}`,
      );
    }
    // Counted only while the shard is not running: a running shard has no failed start.
    const shared = sharedReport(
      shardStatus,
      report.load,
      shardStatus === "NOT_RUNNING" ? failedStarts : 0,
    );
    reports.set(
      key,
      report.topKeys?.length ? withTopKeys(shared, topKeysOf(report, field(key))) : shared,
    );
  }
  return reports;
}

/** A report's top keys, checked: at most 32, each key 1 to 256 characters with a finite load ≥ 0. */
function topKeysOf(report: RawReport, field: string): readonly KeyLoad[] {
  const keys = report.topKeys ?? [];
  if (keys.length > MAX_TOP_KEYS) {
    throw new InvalidArgumentError(
      `${field}.top_keys`,
      `has ${keys.length} keys; at most ${MAX_TOP_KEYS} are allowed`,
    );
  }
  for (const [i, k] of keys.entries()) {
    if (typeof k.key !== "string" || k.key.length === 0 || k.key.length > MAX_TOP_KEY_LENGTH) {
      throw new InvalidArgumentError(
        `${field}.top_keys[${i}].key`,
        `must be 1 to ${MAX_TOP_KEY_LENGTH} characters, got ${String(k.key?.length ?? 0)}`,
      );
    }
    if (!Number.isFinite(k.load) || k.load < 0) {
      throw new InvalidArgumentError(
        `${field}.top_keys[${i}].load`,
        `must be a finite number >= 0, got ${k.load}`,
      );
    }
  }
  return keys;
}

/** Each stored report is its quoted key and about 30 bytes of status and load. */
const REPORT_OVERHEAD_BYTES = 32;

/** Keeps the stored reports under `MAX_REPORTS_BYTES`; exact only when close to it. */
function checkReportsSize(entries: readonly (readonly [string, RawReport])[]): void {
  let chars = 0;
  let topKeys = 0;
  for (const [key, report] of entries) {
    chars += key.length;
    // Key ranges: each top key is stored with its load (checked to 32 of 256 characters).
    for (const k of report.topKeys ?? []) chars += String(k.key).length, topKeys++;
  }
  // JSON escaping writes at most 6 bytes per UTF-16 unit: usually no need to encode.
  const overhead = (entries.length + topKeys) * REPORT_OVERHEAD_BYTES;
  if (chars * 6 + overhead <= MAX_REPORTS_BYTES) return;
  let bytes = 0;
  let longest = 0;
  for (const [key, report] of entries) {
    bytes += jsonBytes(key) + REPORT_OVERHEAD_BYTES;
    for (const k of report.topKeys ?? []) bytes += jsonBytes(String(k.key)) + REPORT_OVERHEAD_BYTES;
    longest = Math.max(longest, key.length);
  }
  if (bytes > MAX_REPORTS_BYTES) {
    throw new InvalidArgumentError(
      "shard_status_reports",
      `is about ${bytes} bytes as stored; at most ${MAX_REPORTS_BYTES} are allowed ` +
        `(${entries.length} reports, the longest key ${longest} ` +
        `characters, e.g. ${preview(entries[0]?.[0] ?? "", 32)})`,
    );
  }
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
