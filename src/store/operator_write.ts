/**
 * Operator writes with a request id and a guard: a retried call with the
 * same id is applied once, and a drain is applied only if no other executor
 * drain landed since the state its disruption budget was checked against.
 * Both conditions are checked by the store in the same atomic step as the
 * write, so a write that was queued while the store was unreachable and lands
 * after its caller gave up is still deduplicated and still checked.
 *
 * @module
 */
import type { ExecutorDrain } from "../core/executor_drain.ts";

/** One operator write. */
export type OperatorWrite =
  /** Drain (or undrain) shards. */
  | {
    readonly type: "shard_drains";
    readonly shardKeys: readonly string[];
    readonly drained: boolean;
  }
  /** Store an executor drain. */
  | { readonly type: "put_executor_drain"; readonly drain: ExecutorDrain }
  /** Remove an executor drain by id. */
  | { readonly type: "delete_executor_drain"; readonly id: string }
  /** Delete every key of the namespace. */
  | { readonly type: "reset" }
  /** Nothing but the request id: reserves it for a write made elsewhere (a move). */
  | { readonly type: "reserve_request" }
  /** Forgets a reserved request id (its write failed, so a retry may apply). */
  | { readonly type: "forget_request"; readonly requestId: string };

/** Conditions of an {@linkcode OperatorWrite}. */
export interface OperatorGuard {
  /** The caller's request id: the write is skipped when one with this id was applied. */
  readonly requestId?: string;
  /** When the write is recorded (ms since epoch), kept with the request id. */
  readonly atMs: number;
  /**
   * Apply only if no executor drain was stored after this store revision:
   * the revision of the state the disruption budget was checked against.
   */
  readonly drainsUnchangedSince?: number;
}

/** What became of an {@linkcode OperatorWrite}. */
export type OperatorWriteOutcome =
  /** Applied at `revision`; `deleted` counts the keys a reset removed. */
  | { readonly applied: true; readonly revision: number; readonly deleted: number }
  /**
   * Not applied: a write with the same request id was (`duplicate`), or an
   * executor drain landed after the guard's revision (`changed`); `revision`
   * is the store's revision when that was found.
   */
  | {
    readonly applied: false;
    readonly reason: "duplicate" | "changed";
    readonly revision: number;
  };

/** How long applied request ids are kept. */
export interface RequestRetention {
  /** Ids recorded before this time (ms since epoch) are forgotten. */
  readonly beforeMs: number;
  /** At most this many ids are kept per namespace (the newest). */
  readonly keep: number;
}
