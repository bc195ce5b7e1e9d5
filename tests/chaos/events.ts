/**
 * What the chaos recorder keeps: one flat list of timestamped events from
 * every process of a run. `at` is wall-clock milliseconds (`Date.now()`) read
 * by the process that saw the event; all processes run on one machine, so the
 * values are comparable across processes (to within the clock's resolution,
 * 1 ms, and the time a line takes to be written).
 *
 * @module
 */

/** How a namespace treats two owners at once. */
export type Ownership = "exclusive" | "available";

/** A processor of `shard` started in executor `executor` (running in process `process`). */
export interface StartEvent {
  readonly type: "start";
  readonly at: number;
  readonly process: string;
  readonly executor: string;
  readonly namespace: string;
  readonly shard: string;
  /** The fencing token the SDK handed the processor. */
  readonly token: string;
}

/**
 * A processor stopped. `cause` is `"exit"` when the recorder synthesised the
 * stop because the executor's process died (it runs nothing any more).
 */
export interface StopEvent {
  readonly type: "stop";
  readonly at: number;
  readonly process: string;
  readonly executor: string;
  readonly namespace: string;
  readonly shard: string;
  readonly cause?: "exit";
}

/** A process was paused (SIGSTOP) or resumed (SIGCONT). */
export interface PauseEvent {
  readonly type: "pause" | "resume";
  readonly at: number;
  readonly process: string;
}

/** A spectator's view of one shard changed; `owner` null: no owner. */
export interface OwnerEvent {
  readonly type: "owner";
  readonly at: number;
  readonly spectator: string;
  readonly namespace: string;
  readonly shard: string;
  readonly owner: string | null;
}

/** etcd lost (`available: false`) or regained its quorum. */
export interface QuorumEvent {
  readonly type: "quorum";
  readonly at: number;
  readonly available: boolean;
}

/** An operator drained a shard. */
export interface DrainEvent {
  readonly type: "drain";
  readonly at: number;
  readonly namespace: string;
  readonly shard: string;
}

/** A fault was injected or healed. */
export interface FaultEvent {
  readonly type: "fault";
  readonly at: number;
  readonly kind: string;
  readonly target: string;
  readonly phase: "inject" | "heal";
}

/** A process exited; `expected` false: nobody asked it to. */
export interface ExitEvent {
  readonly type: "exit";
  readonly at: number;
  readonly process: string;
  readonly expected: boolean;
  readonly code: number;
  readonly signal: string | null;
}

/**
 * One heartbeat of an executor, as the executor sent it (`sentAt`) and its
 * outcome at `at`: answered (`ok`) or failed. An answer lists the shards it
 * gives the executor to run (`assigned`), the ones the service is taking
 * back (`releasing`, exclusive namespaces) and the quarantined ones.
 * `status` is the executor's own state when it was not `ACTIVE` (e.g.
 * `DRAINING` while it shuts down).
 */
export interface HeartbeatEvent {
  readonly type: "heartbeat";
  readonly at: number;
  readonly sentAt: number;
  readonly process: string;
  readonly executor: string;
  readonly namespace: string;
  readonly ok: boolean;
  readonly status?: string;
  readonly assigned?: readonly string[];
  readonly releasing?: readonly string[];
  readonly quarantined?: readonly string[];
  /** Why it failed. */
  readonly error?: string;
}

/**
 * A processor's write through its fencing token, acknowledged by the fenced
 * store (`tests/chaos/fence_store.ts`): the store held at most `token` for
 * the shard and now holds `token` and the write number `count` (1, 2, ...
 * per shard, in the store's order).
 */
export interface FenceWriteEvent {
  readonly type: "write";
  readonly at: number;
  readonly process: string;
  readonly executor: string;
  readonly namespace: string;
  readonly shard: string;
  readonly token: string;
  readonly count: number;
}

/** A processor's write the fenced store refused: it had seen a greater token (`stored`). */
export interface FenceRejectEvent {
  readonly type: "write-rejected";
  readonly at: number;
  readonly process: string;
  readonly executor: string;
  readonly namespace: string;
  readonly shard: string;
  readonly token: string;
  readonly stored: string;
}

/** Anything the recorder keeps. */
export type ChaosEvent =
  | StartEvent
  | StopEvent
  | PauseEvent
  | OwnerEvent
  | QuorumEvent
  | DrainEvent
  | FaultEvent
  | ExitEvent
  | HeartbeatEvent
  | FenceWriteEvent
  | FenceRejectEvent;

/** A namespace as the checker sees it. */
export interface NamespaceSpec {
  readonly name: string;
  readonly ownership: Ownership;
  /** Every shard key of the (fixed) namespace. */
  readonly shards: readonly string[];
  /** `executorCapacity.shards` of the namespace (the mass-loss scenario). @default {none} */
  readonly capacity?: number;
}
