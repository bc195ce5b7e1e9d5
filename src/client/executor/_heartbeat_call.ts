/**
 * One heartbeat: the request built from the executor's state, the call with
 * its timeout, and the assignment read from the answer.
 *
 * @module
 */
import type {
  HeartbeatRequest__Output,
  HeartbeatResponse__Output,
  ShardStatusReport__Output,
} from "../../wire/proto.ts";
import { HeartbeatTimeoutError } from "./errors.ts";
import type { ResolvedOptions } from "./_resolve_options.ts";
import type { ShardSlot } from "./_shard_slot.ts";
import type { HeartbeatTransport } from "./transport.ts";
import type { ExecutorState } from "./types.ts";
import { withTimeout } from "./_with_timeout.ts";

/** The request: `status`, a report per running shard (none once DRAINED), and the metadata. */
export function heartbeatRequest(
  options: ResolvedOptions,
  status: ExecutorState,
  slots: Iterable<ShardSlot>,
): HeartbeatRequest__Output {
  const reports: Record<string, ShardStatusReport__Output> = {};
  if (status !== "DRAINED") {
    for (const slot of slots) {
      const report = slot.report();
      if (report) reports[slot.shardKey] = report;
    }
  }
  return {
    namespace: options.namespace,
    executorId: options.executorId,
    status: `EXECUTOR_STATUS_${status}`,
    shardStatusReports: reports,
    metadata: { ...options.metadata },
  };
}

/** Sends `request`; rejects with {@linkcode HeartbeatTimeoutError} (and cancels) after the timeout. */
export function sendHeartbeat(
  transport: HeartbeatTransport,
  request: HeartbeatRequest__Output,
  options: ResolvedOptions,
): Promise<HeartbeatResponse__Output> {
  const { clock, heartbeatTimeoutMs: timeoutMs } = options;
  const abort = new AbortController();
  return withTimeout(
    transport.heartbeat(request, { signal: abort.signal, timeoutMs }),
    timeoutMs,
    clock,
    () => new HeartbeatTimeoutError(timeoutMs),
    () => abort.abort(),
  );
}

/** Shard key → fencing token, from an answer. */
export function assignmentsOf(answer: HeartbeatResponse__Output): Map<string, string> {
  const assigned = new Map<string, string>();
  for (const [key, assignment] of Object.entries(answer.shardAssignments ?? {})) {
    assigned.set(key, String(assignment?.fencingToken ?? "0"));
  }
  return assigned;
}
