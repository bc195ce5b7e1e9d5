/**
 * Passing over an etcd member that stopped answering. The etcd client sends
 * each call to one member chosen at random and waits for it until the call's
 * deadline. A member that is frozen (a stalled disk, a paused VM, a SIGSTOP)
 * keeps its connections open and answers nothing, so without this a third of
 * every instance's calls (store pings, heartbeat writes) hung while the two
 * other members kept the quorum (docs/chaos.md, Findings).
 *
 * Each member gets a policy (the client's per-host fault handling): once a
 * call to it ends without an answer (its deadline passed, or the connection
 * failed), the member rests and calls go to the others, for
 * {@linkcode MEMBER_REST_MS} at first, doubling while it keeps failing. A
 * member is never passed over when every other member rests too, so a whole
 * cluster that is slow or down is still tried as before (never refused by
 * this policy alone); one answer ends its rest.
 *
 * @module
 */

/** How long a member that did not answer is passed over at first, ms. */
export const MEMBER_REST_MS = 2_000;

/** The longest rest, ms (a member that keeps failing is tried again this often). */
export const MEMBER_REST_MAX_MS = 16_000;

/** What the client's fault handling calls on each member (cockatiel's `IPolicy.execute`). */
export interface MemberPolicy {
  /** Runs `fn` against this member, or refuses at once while it rests. */
  execute<T>(fn: () => PromiseLike<T> | T): Promise<T>;
}

/** Thrown instead of calling a resting member; the client then tries another. */
export class MemberRestingError extends Error {
  /** @param member the member's address */
  constructor(readonly member: string) {
    super(`etcd member ${member} did not answer its last call; calls go to the others for now`);
    this.name = "MemberRestingError";
  }
}

/**
 * Whether `error` says the member gave no answer: a deadline that passed,
 * or a connection that failed (the client's recoverable errors), as opposed
 * to an answer that refused the call.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { noAnswer } from "./member_rest.ts";
 *
 * assert.equal(noAnswer(Object.assign(new Error("x"), { code: 4 })), true); // DEADLINE_EXCEEDED
 * assert.equal(noAnswer(new Error("14 UNAVAILABLE: No connection established")), true);
 * assert.equal(noAnswer(new Error("etcdserver: requested lease not found")), false);
 * ```
 */
export function noAnswer(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  if (code === 4 || code === 14) return true; // gRPC DEADLINE_EXCEEDED, UNAVAILABLE
  return /DEADLINE_EXCEEDED|deadline exceeded|UNAVAILABLE|No connection established|GRPCConnectFailed|ECONNREFUSED|ECONNRESET/i
    .test(`${error.name} ${error.message}`);
}

interface Member {
  restUntil: number;
  restMs: number;
}

/**
 * The rest state of one client's members, shared by their policies.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { MemberRest, MemberRestingError } from "./member_rest.ts";
 *
 * let now = 0;
 * const rest = new MemberRest(() => now);
 * const a = rest.policy("a:2379");
 * rest.policy("b:2379");
 * const timeout = Object.assign(new Error("deadline"), { code: 4 });
 * await assert.rejects(a.execute(() => Promise.reject(timeout)));
 * await assert.rejects(a.execute(() => "skipped"), MemberRestingError);
 * now += 2_000;
 * assert.equal(await a.execute(() => "answered"), "answered");
 * ```
 */
export class MemberRest {
  readonly #members = new Map<string, Member>();
  readonly #now: () => number;

  /** @param now monotonic time, ms */
  constructor(now: () => number = () => performance.now()) {
    this.#now = now;
  }

  /** The policy of member `address` (made once per address). */
  policy(address: string): MemberPolicy {
    const member: Member = { restUntil: 0, restMs: 0 };
    this.#members.set(address, member);
    return {
      execute: async <T>(fn: () => PromiseLike<T> | T): Promise<T> => {
        if (this.#passOver(member)) throw new MemberRestingError(address);
        try {
          const result = await fn();
          member.restUntil = 0;
          member.restMs = 0;
          return result;
        } catch (error) {
          if (noAnswer(error)) {
            member.restMs = Math.min(
              member.restMs === 0 ? MEMBER_REST_MS : member.restMs * 2,
              MEMBER_REST_MAX_MS,
            );
            member.restUntil = this.#now() + member.restMs;
          }
          throw error;
        }
      },
    };
  }

  /** The addresses of the members resting now. */
  resting(): string[] {
    const now = this.#now();
    return [...this.#members].filter(([, m]) => m.restUntil > now).map(([address]) => address);
  }

  #passOver(member: Member): boolean {
    const now = this.#now();
    if (member.restUntil <= now) return false;
    for (const other of this.#members.values()) {
      if (other !== member && other.restUntil <= now) return true;
    }
    return false; // every member rests: try this one as before
  }
}
