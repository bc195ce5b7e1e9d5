/**
 * The steps of exclusive ownership within one pass: for each shard the
 * balancer wants elsewhere, whether to keep it, release it (ask its owner to
 * stop), wait, or move it now; and what the commit must then check.
 *
 * @module
 */
import type { ExecutorAt } from "./plan.ts";
import type { PlanInput } from "./plan_input.ts";
import type { ExclusivePlanning } from "./plan_policy.ts";
import { HandoverGuard } from "./handover_guard.ts";

/** What an exclusive namespace does with a shard the balancer wants elsewhere. */
export type HandoverStep = "keep" | "move" | "release" | "wait";

/** Decides each shard's step in an exclusive namespace and gathers what the commit needs. */
export class Handovers {
  /** The rules, as questions about the pass's input. */
  readonly guard: HandoverGuard;
  readonly #input: PlanInput;
  readonly #maxReliedOn: number;
  readonly #reliedOn = new Map<string, number>();
  /** Earliest lease expiry a waiting shard depends on. */
  wakeAtMs: number | undefined;

  /** Handovers of a pass over `input`. */
  constructor(input: PlanInput, exclusive: ExclusivePlanning) {
    this.#input = input;
    this.guard = new HandoverGuard(input, exclusive);
    this.#maxReliedOn = exclusive.maxReliedOn;
  }

  /** Executors whose expiry the plan relies on, at the heartbeat revision seen. */
  get reliedOn(): ExecutorAt[] {
    return [...this.#reliedOn].map(([executorId, heartbeatRevision]) => ({
      executorId,
      heartbeatRevision,
    }));
  }

  /** The step for `shard`, owned by `current`, that the balancer wants on `next`. */
  step(shard: string, current: string | undefined, next: string | undefined): HandoverStep {
    const guard = this.guard;
    const releasing = this.#input.releasing.has(shard);
    if (current === undefined) {
      if (next === undefined) return "keep";
      return guard.blocked(shard, next) ? this.#wait(shard, next) : "move";
    }
    if (next === current) {
      // Back to its owner: after a confirmed stop that is a fresh start (a new token).
      return releasing && guard.confirmedStopped(shard, current) ? "move" : "keep";
    }
    if (guard.confirmedStopped(shard, current)) {
      return next !== undefined && guard.blocked(shard, next) ? this.#wait(shard, next) : "move";
    }
    if (guard.expired(current)) {
      if (!this.#relyOnExpiry(current)) return "wait";
      return next !== undefined && guard.blocked(shard, next) ? this.#wait(shard, next) : "move";
    }
    this.#wake(guard.expiresAt(current));
    return releasing ? "wait" : "release";
  }

  #relyOnExpiry(executorId: string): boolean {
    if (this.#reliedOn.has(executorId)) return true;
    if (this.#reliedOn.size >= this.#maxReliedOn) return false;
    const executor = this.#input.executors.get(executorId);
    // An executor the store no longer holds cannot be heard from again under its old record.
    if (executor) this.#reliedOn.set(executorId, executor.heartbeatRevision);
    return true;
  }

  #wait(shard: string, target: string): HandoverStep {
    for (const [id, executor] of this.#input.executors) {
      if (id !== target && executor.reports.has(shard)) this.#wake(this.guard.expiresAt(id));
    }
    return "wait";
  }

  #wake(atMs: number): void {
    if (Number.isFinite(atMs) && (this.wakeAtMs === undefined || atMs < this.wakeAtMs)) {
      this.wakeAtMs = atMs;
    }
  }
}
