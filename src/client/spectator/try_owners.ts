/**
 * Trying the owners of a shard in turn: the client side of a replicated
 * namespace, where some owners may fail and the request should go to the next.
 *
 * @module
 */
import { AllOwnersFailedError } from "./errors.ts";
import type { Owner } from "./types.ts";

/** Options of {@linkcode tryOwners}. */
export interface TryOwnersOptions {
  /** Stops trying; the call rejects with the signal's reason. */
  readonly signal?: AbortSignal;
  /**
   * Whether an error should lead to the next owner. An error it refuses is
   * rethrown at once (a bad request fails on every owner alike).
   * @default {() => true}
   */
  readonly isRetryable?: (error: unknown) => boolean;
}

/**
 * Calls `attempt` with each of `owners` in order until one resolves, and
 * returns that result. Rejects with an {@linkcode AllOwnersFailedError}
 * holding every error when all fail (or when `owners` is empty), with the
 * first error `isRetryable` refuses, or with the signal's reason.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { tryOwners } from "./try_owners.ts";
 *
 * const owners = [{ executorId: "a", metadata: {} }, { executorId: "b", metadata: {} }];
 * const answer = await tryOwners("ns", "7", owners, async (owner) => {
 *   if (owner.executorId === "a") throw new Error("a is down");
 *   return `answered by ${owner.executorId}`;
 * });
 * assert.equal(answer, "answered by b");
 * ```
 */
export async function tryOwners<T>(
  namespace: string,
  shardKey: string,
  owners: readonly Owner[],
  attempt: (owner: Owner, index: number, signal: AbortSignal | undefined) => Promise<T>,
  options: TryOwnersOptions = {},
): Promise<T> {
  if (typeof attempt !== "function") {
    throw new TypeError(`attempt must be a function, got ${typeof attempt}`);
  }
  const { signal, isRetryable = () => true } = options;
  const errors: unknown[] = [];
  for (const [index, owner] of owners.entries()) {
    signal?.throwIfAborted();
    try {
      return await attempt(owner, index, signal);
    } catch (error) {
      signal?.throwIfAborted();
      if (!isRetryable(error)) throw error;
      errors.push(error);
    }
  }
  throw new AllOwnersFailedError(namespace, shardKey, owners.map((o) => o.executorId), errors);
}
