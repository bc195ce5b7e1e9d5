/**
 * What flows through the heartbeat pipeline: a submission carries its
 * heartbeat and the promise callbacks of the RPC waiting for it, and each
 * stage either passes it on or settles it.
 *
 * @module
 */
import { StoreUnavailableError } from "../core/errors.ts";
import type { ExecutorStatus, ShardReports } from "../core/types.ts";
import type { Heartbeat, RawHeartbeat } from "./validate_heartbeat.ts";

/**
 * What ingestion needs to know of an executor: what its last recorded
 * heartbeat said, and when this instance saw it (a `NamespaceState`'s
 * `ExecutorView` is one).
 */
export interface KnownExecutor {
  /** Recorded status. */
  readonly status: ExecutorStatus;
  /** For an `UNKNOWN` status: the enum number recorded. */
  readonly statusNumber?: number;
  /** It sent `warm_handover` in its recorded heartbeat. */
  readonly warmHandover?: boolean;
  /** The incarnation of its recorded heartbeat. */
  readonly incarnation?: string;
  /** Local monotonic time when this instance last saw a heartbeat recorded. */
  readonly seenAtMs: number;
  /** Recorded metadata. */
  readonly metadata: Readonly<Record<string, string>>;
  /** Recorded shard reports. */
  readonly reports: ShardReports;
}

/** A namespace as ingestion sees it. */
export interface IngestNamespace {
  /** The executor as this instance knows it, or undefined for a new one. */
  executor(executorId: string): KnownExecutor | undefined;
  /**
   * Write the liveness record, with the reports, for every heartbeat: never
   * coalesced, never deferred (exclusive namespaces).
   */
  readonly recordEvery: boolean;
  /**
   * Told of every valid heartbeat as soon as it is validated, before it is
   * recorded (exclusive namespaces: what executors run is known even while the
   * store cannot record it; see heard_reports.ts). Must not throw.
   */
  readonly heard?: ((heartbeat: Heartbeat) => void) | undefined;
}

/** Finds the namespace a heartbeat names; undefined when this instance does not serve it. */
export type NamespaceLookup = (namespace: string) => IngestNamespace | undefined;

/** The callbacks of one waiting heartbeat: settled exactly once, by whichever stage is done with it. */
export interface Pending {
  /** Recorded, with the store revision of the write when it was written at once. */
  readonly resolve: (revision?: number) => void;
  /** Not recorded. */
  readonly reject: (error: unknown) => void;
}

/** A heartbeat as the transport decoded it, before validation. */
export interface RawSubmission extends Pending {
  /** What the executor sent. */
  readonly raw: RawHeartbeat;
}

/** A validated heartbeat and the namespace it is for. */
export interface Submission extends Pending {
  /** The heartbeat. */
  readonly heartbeat: Heartbeat;
  /** Its namespace. */
  readonly namespace: IngestNamespace;
  /** The reports' wire bytes, when the transport kept them (`RawHeartbeat.reportsBytes`). */
  readonly reportsBytes?: Uint8Array;
}

/**
 * The error a heartbeat fails with when it could not be recorded (gRPC
 * UNAVAILABLE): `error` itself when it already is one, else one caused by it.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { StoreUnavailableError } from "../core/errors.ts";
 * import { unrecorded } from "./submission.ts";
 *
 * const error = unrecorded(new Error("etcd down"));
 * assert.ok(error instanceof StoreUnavailableError);
 * assert.equal((error.cause as Error).message, "etcd down");
 * ```
 */
export function unrecorded(error: unknown): StoreUnavailableError {
  return error instanceof StoreUnavailableError
    ? error
    : new StoreUnavailableError("Could not record the heartbeat", { cause: error });
}
