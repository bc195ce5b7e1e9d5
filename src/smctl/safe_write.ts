/**
 * Mutating calls made safe to retry: each carries a request id (a fresh
 * UUID), is retried with the same id when the service is unavailable or
 * does not answer in time, and when smctl gives up it says that the change
 * may still be applied and which command shows whether it was.
 *
 * @module
 */
import type { Rpcs } from "./connection.ts";
import type { Context } from "./context.ts";
import { SmctlError } from "./errors.ts";
import { ExitCode } from "./exit_codes.ts";
import { sleep } from "./sleep.ts";

/** The mutating RPCs, which take a request id. */
export type WriteMethod =
  | "drainShards"
  | "undrainShards"
  | "forceResetNamespace"
  | "drainExecutors"
  | "undrainExecutors"
  | "moveShards";

/** Attempts of one write before smctl gives up. */
export const WRITE_ATTEMPTS = 3;

/** Pause before the second attempt, ms; it doubles for each further one. */
export const RETRY_PAUSE_MS = 500;

/**
 * The message when smctl gives up on a write: the last failure, the request
 * id, that the change may still be applied, and the command that shows it.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { gaveUpText } from "./safe_write.ts";
 *
 * const text = gaveUpText("no answer", 3, "r-1", "smctl -n ns executor drains");
 * assert.match(text, /may still be applied/);
 * assert.match(text, /smctl -n ns executor drains$/);
 * ```
 */
export function gaveUpText(
  last: string,
  attempts: number,
  requestId: string,
  check: string,
): string {
  return `${last}; gave up after ${attempts} ${attempts === 1 ? "attempt" : "attempts"} ` +
    `(request id ${requestId}). The change may still be applied once the service or its ` +
    `store recovers; check with: ${check}`;
}

/**
 * Calls `method` with a request id, retrying with the same id on
 * UNAVAILABLE and DEADLINE_EXCEEDED; `check` is the command that shows the
 * outcome, named when smctl gives up.
 */
export async function safeWrite<M extends WriteMethod>(
  ctx: Context,
  method: M,
  request: Omit<Rpcs[M][0], "requestId">,
  check: string,
): Promise<Rpcs[M][1]> {
  const requestId = crypto.randomUUID();
  const never = new AbortController().signal;
  let last: SmctlError | undefined;
  for (let attempt = 1; attempt <= WRITE_ATTEMPTS; attempt++) {
    if (attempt > 1) {
      ctx.output.warn(`${last?.message}; retrying with the same request id ${requestId}`);
      await sleep(RETRY_PAUSE_MS * 2 ** (attempt - 2), never);
    }
    try {
      return await ctx.connection.call(method, { ...request, requestId } as Rpcs[M][0]);
    } catch (error) {
      if (!(error instanceof SmctlError) || error.exitCode !== ExitCode.UNAVAILABLE) throw error;
      last = error;
    }
  }
  throw new SmctlError(
    gaveUpText(last?.message ?? "no answer", WRITE_ATTEMPTS, requestId, check),
    ExitCode.UNAVAILABLE,
    { cause: last },
  );
}
