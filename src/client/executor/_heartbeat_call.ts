/**
 * One heartbeat: the request built from the executor's state, the call with
 * its timeout, and the assignment read from the answer.
 *
 * @module
 */
import type { KeyRanges } from "./_key_ranges.ts";
import type {
  HeartbeatRequest__Output,
  HeartbeatResponse__Output,
  ShardStatusReport__Output,
} from "../../wire/proto.ts";
import { HeartbeatTimeoutError } from "./errors.ts";
import type { ResolvedOptions } from "./_resolve_options.ts";
import type { Preparation } from "./_preparation.ts";
import type { ShardSlot } from "./_shard_slot.ts";
import type { HeartbeatTransport } from "./transport.ts";
import type { ExecutorState, ShardOwner } from "./types.ts";
import { ShardManagerError } from "../common/errors.ts";
import { classifyCallError } from "../common/classify.ts";
import { withTimeout } from "./_with_timeout.ts";

/**
 * The request: `status`, a report per running shard (none once DRAINED), and
 * the metadata. With `exclusive`, every held shard is reported, also while its
 * processor is starting or stopping: the service moves a shard only once no
 * report names it, so a report must never hide a processor that may run.
 * Prepared shards (warm handover) are reported PREPARED; `warmHandover` is
 * sent when the executor has a `prepare` hook.
 * `appliedRevision` is the `revision` of the latest answer acted on (exclusive only);
 * `incarnation` is the executor's id for this life (a restart picks a new one).
 */
export function heartbeatRequest(
  options: ResolvedOptions,
  status: ExecutorState,
  slots: Iterable<ShardSlot | Preparation>,
  exclusive = false,
  appliedRevision = "0",
  ranges?: KeyRanges,
): HeartbeatRequest__Output {
  const reports: Record<string, ShardStatusReport__Output> = {};
  if (status !== "DRAINED" || exclusive) {
    for (const slot of slots) {
      const report = exclusive ? slot.heldReport() : slot.report();
      if (report) reports[slot.shardKey] = report;
    }
    // Key ranges: each slice's load from its keys, with its heaviest keys.
    ranges?.addTo(reports);
  }
  return {
    namespace: options.namespace,
    executorId: options.executorId,
    status: `EXECUTOR_STATUS_${status}`,
    shardStatusReports: reports,
    metadata: { ...options.metadata },
    appliedRevision,
    warmHandover: options.prepare !== undefined,
    incarnation: options.incarnation,
  };
}

/**
 * Sends `request`; rejects with {@linkcode HeartbeatTimeoutError} (and
 * cancels) after the timeout. Aborting `signal` cancels the call.
 */
export function sendHeartbeat(
  transport: HeartbeatTransport,
  request: HeartbeatRequest__Output,
  options: ResolvedOptions,
  signal?: AbortSignal,
): Promise<HeartbeatResponse__Output> {
  const { clock, heartbeatTimeoutMs: timeoutMs } = options;
  const abort = new AbortController();
  if (signal?.aborted) abort.abort();
  signal?.addEventListener("abort", () => abort.abort(), { once: true, signal: abort.signal });
  return withTimeout(
    transport.heartbeat(request, { signal: abort.signal, timeoutMs }),
    timeoutMs,
    clock,
    () => new HeartbeatTimeoutError(timeoutMs),
    () => abort.abort(),
  ).finally(() => abort.abort());
}

/**
 * Shard key → fencing token, from an answer: the shards to run. A shard the
 * service is taking away (RELEASING) is not among them, nor one this
 * executor is only to prepare (PREPARING, see {@linkcode preparingOf}).
 */
export function assignmentsOf(answer: HeartbeatResponse__Output): Map<string, string> {
  const assigned = new Map<string, string>();
  for (const [key, assignment] of Object.entries(answer.shardAssignments ?? {})) {
    const status = assignment?.status;
    if (status === "ASSIGNMENT_STATUS_RELEASING" || status === "ASSIGNMENT_STATUS_PREPARING") {
      continue;
    }
    assigned.set(key, String(assignment?.fencingToken ?? "0"));
  }
  return assigned;
}

/**
 * Shard key → fencing token of the shards the answer lists as PREPARING
 * (warm handover): to prepare, not to serve. The token is the one the
 * executor will hold once the shard turns READY.
 */
export function preparingOf(answer: HeartbeatResponse__Output): Map<string, string> {
  const preparing = new Map<string, string>();
  for (const [key, assignment] of Object.entries(answer.shardAssignments ?? {})) {
    if (assignment?.status !== "ASSIGNMENT_STATUS_PREPARING") continue;
    preparing.set(key, String(assignment.fencingToken ?? "0"));
  }
  return preparing;
}

/** The shards the answer says the service quarantined (stopped, never retried). */
export function quarantinedOf(answer: HeartbeatResponse__Output): Set<string> {
  return new Set(answer.quarantinedShards ?? []);
}

/** The ownership lease (ms) of an exclusive namespace, from an answer; undefined when available. */
export function exclusiveLeaseOf(answer: HeartbeatResponse__Output): number | undefined {
  if (answer.ownershipMode !== "OWNERSHIP_MODE_EXCLUSIVE") return undefined;
  const lease = Number(answer.ownershipLeaseMs ?? 0);
  // A malformed lease cannot be honoured safely: stop at once rather than keep shards.
  return Number.isFinite(lease) && lease > 0 ? lease : 0;
}

/**
 * A prepare hook's `ctx.currentOwner()`: `GetShardOwner` through the
 * executor's transport; rejects with code `UNIMPLEMENTED` when the
 * transport cannot look owners up (or is not open).
 */
export async function lookUpOwner(
  transport: HeartbeatTransport | undefined,
  request: { readonly namespace: string; readonly shardKey: string },
  options: { readonly signal: AbortSignal; readonly timeoutMs: number },
): Promise<ShardOwner | undefined> {
  const { namespace, shardKey } = request;
  if (transport?.shardOwner === undefined) {
    throw new ShardManagerError(
      `Cannot look up the owner of shard ${
        JSON.stringify(shardKey)
      }: the executor's transport has no shardOwner method`,
      { code: "UNIMPLEMENTED" },
    );
  }
  try {
    return await transport.shardOwner({ namespace, shardKey }, options);
  } catch (error) {
    throw classifyCallError(error, { namespace, operation: "GetShardOwner" });
  }
}
