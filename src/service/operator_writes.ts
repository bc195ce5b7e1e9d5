/**
 * Applying an operator's write through the store's guarded write: a request
 * id makes a retried call apply once, and a check (the disruption budget) is
 * run against the cache and run again whenever the store reports that an
 * executor drain landed since, so a drain that was queued while the store was
 * unreachable is checked against the state it actually lands in.
 *
 * @module
 */
import { type Clock, timeoutSignal } from "../core/clock.ts";
import { InvalidArgumentError, StoreUnavailableError } from "../core/errors.ts";
import type { NamespaceRuntime } from "../namespace/namespace_runtime.ts";
import type { NamespaceView } from "../state/namespace_view.ts";
import type { OperatorWrite, OperatorWriteOutcome } from "../store/operator_write.ts";
import type { Store } from "../store/store.ts";

/** Longest request id accepted. */
export const MAX_REQUEST_ID_LENGTH = 128;

/** How long applied request ids are remembered, ms (a day). */
export const REQUEST_ID_RETENTION_MS = 24 * 60 * 60 * 1000;

/** Most applied request ids remembered per namespace. */
export const REQUEST_ID_RETENTION_COUNT = 10_000;

/** Times a guarded write is tried again after the drains changed under it. */
const MAX_CONFLICTS = 8;

/**
 * The request id of a call: undefined for an empty one, else checked.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { validateRequestId } from "./operator_writes.ts";
 *
 * assert.equal(validateRequestId(""), undefined);
 * assert.equal(validateRequestId("7f3c-1"), "7f3c-1");
 * assert.throws(() => validateRequestId("x".repeat(200)));
 * ```
 */
export function validateRequestId(id: string | undefined): string | undefined {
  if (id === undefined || id === "") return undefined;
  if (id.length > MAX_REQUEST_ID_LENGTH) {
    throw new InvalidArgumentError(
      "request_id",
      `is ${id.length} characters; at most ${MAX_REQUEST_ID_LENGTH}`,
    );
  }
  // deno-lint-ignore no-control-regex -- control characters are what is refused
  if (/[\u0000-\u001f\u007f]/.test(id)) {
    throw new InvalidArgumentError("request_id", "must not hold control characters");
  }
  return id;
}

/** Options of {@linkcode applyOperatorWrite}. */
export interface GuardedWriteOptions {
  /** The caller's request id, if any. */
  readonly requestId?: string | undefined;
  /**
   * Throws (a domain error) when the write must not be made in the state
   * `view` shows; with it the write also requires the executor drains to be
   * unchanged since that state, and is checked again when they changed.
   */
  readonly check?: (view: NamespaceView) => void;
}

/** Applies `write` in `runtime`'s namespace, then waits until the cache shows it. */
export async function applyOperatorWrite(
  store: Store,
  clock: Clock,
  runtime: NamespaceRuntime,
  write: OperatorWrite,
  options: GuardedWriteOptions = {},
): Promise<OperatorWriteOutcome> {
  const namespace = runtime.policy.name;
  const { cache } = runtime;
  for (let conflicts = 0;; conflicts++) {
    const view = cache.state;
    options.check?.(view);
    const drainsSeen = drainsSignature(view);
    const atMs = clock.now();
    const outcome = await store.applyOperatorWrite(namespace, write, {
      atMs,
      ...(options.requestId === undefined ? {} : { requestId: options.requestId }),
      ...(options.check === undefined ? {} : { drainsUnchangedSince: view.revision }),
    });
    if (outcome.applied) {
      // A reset's deletes reach the cache as a reload, not as a revision to wait for.
      const ownRevision = write.type !== "reset" && write.type !== "reserve_request" &&
        write.type !== "forget_request";
      if (ownRevision) await cache.waitForRevision(outcome.revision);
      if (options.requestId !== undefined) await forgetOld(store, namespace, atMs);
      return outcome;
    }
    // The store's revision may be another namespace's, which this cache never
    // applies: wait for what the outcome implies instead, for a bounded time.
    if (outcome.reason === "duplicate") {
      const bounded = timeoutSignal(CATCH_UP_MS, clock);
      await cache.waitForRevision(outcome.revision, bounded.signal).catch(() => {});
      bounded.clear();
      return outcome;
    }
    if (conflicts >= MAX_CONFLICTS) {
      throw new StoreUnavailableError(
        `Executor drains of namespace ${JSON.stringify(namespace)} kept changing; retry the call`,
      );
    }
    const bounded = timeoutSignal(CATCH_UP_MS, clock);
    await cache.waitUntil(() => drainsSignature(cache.state) !== drainsSeen, bounded.signal)
      .catch(() => {});
    bounded.clear();
  }
}

/** Longest wait for the cache to show what a refused write found, ms. */
const CATCH_UP_MS = 5_000;

function drainsSignature(view: NamespaceView): string {
  return [...view.executorDrains()].map((d) => `${d.id}@${d.createdAtMs}`).sort().join("\n");
}

async function forgetOld(store: Store, namespace: string, nowMs: number): Promise<void> {
  try {
    await store.pruneOperatorRequests(namespace, {
      beforeMs: nowMs - REQUEST_ID_RETENTION_MS,
      keep: REQUEST_ID_RETENTION_COUNT,
    });
  } catch {
    // Forgetting old ids is housekeeping; the next write tries again.
  }
}
