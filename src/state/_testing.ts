/**
 * Test helpers that put things into a {@linkcode NamespaceState} the way the
 * store's change feed would (its fields are private), for unit tests of
 * readers: routing, inspection, planners, metrics.
 *
 * @module
 */
import type { ExecutorDrain } from "../core/executor_drain.ts";
import { reportsFrom } from "../core/shared_reports.ts";
import type { ExecutorStatus, ShardReport, ShardReports } from "../core/types.ts";
import type { NamespaceEvent } from "../store/store.ts";
import type { NamespaceState } from "./namespace_state.ts";

/** An executor to put into a state. */
export interface TestExecutor {
  /** Its id. */
  readonly executorId: string;
  /** Its status. @default {"ACTIVE"} */
  readonly status?: ExecutorStatus;
  /** Monotonic time its heartbeat is seen at; -Infinity: never (no heartbeat). @default {0} */
  readonly seenAtMs?: number;
  /** Wall-clock time of that heartbeat. @default {0} */
  readonly lastHeartbeatMs?: number;
  /** Revision of the batch (and of the heartbeat record). @default {the state's revision + 1} */
  readonly revision?: number;
  /** Exclusive namespaces: the answer revision it echoes. */
  readonly appliedRevision?: number;
  /** Metadata. */
  readonly metadata?: Readonly<Record<string, string>>;
  /** Shard reports. */
  readonly reports?: ShardReports | Readonly<Record<string, ShardReport>>;
}

/** Applies `events` as one batch at the state's next revision (or `revision`), seen at `now`. */
export function applyEvents(
  state: NamespaceState,
  events: readonly NamespaceEvent[],
  now = 0,
  revision = state.revision + 1,
): void {
  state.apply({ revision, events }, now);
}

/** Puts an executor into `state`, as its heartbeat, metadata and reports records would. */
export function putExecutor(state: NamespaceState, executor: TestExecutor): void {
  const { executorId } = executor;
  const seenAtMs = executor.seenAtMs ?? 0;
  const events: NamespaceEvent[] = [];
  if (Number.isFinite(seenAtMs)) {
    events.push({
      type: "heartbeat",
      executorId,
      record: {
        status: executor.status ?? "ACTIVE",
        timestampMs: executor.lastHeartbeatMs ?? 0,
        ...(executor.appliedRevision === undefined
          ? {}
          : { appliedRevision: executor.appliedRevision }),
      },
    });
  }
  events.push({ type: "metadata", executorId, metadata: executor.metadata ?? {} });
  events.push({ type: "reports", executorId, reports: reportsFrom(executor.reports ?? {}) });
  applyEvents(state, events, Number.isFinite(seenAtMs) ? seenAtMs : 0, executor.revision);
}

/** Stores an operator drain of executors. */
export function putExecutorDrain(state: NamespaceState, drain: ExecutorDrain): void {
  applyEvents(state, [{ type: "executor_drain", id: drain.id, drain }]);
}

/** Removes an operator drain of executors. */
export function removeExecutorDrain(state: NamespaceState, id: string): void {
  applyEvents(state, [{ type: "executor_drain", id }]);
}

/** Drains (or undrains) a shard. */
export function setDrained(state: NamespaceState, shardKey: string, drained = true): void {
  applyEvents(state, [{ type: "drained", shardKey, drained }]);
}

/** Forgets an executor, as its removal from the store would. */
export function removeExecutor(state: NamespaceState, executorId: string): void {
  applyEvents(state, [{ type: "executor_removed", executorId }]);
}
