/**
 * The two deadlines after which an executor stops its processors on its own:
 * the ownership lease of an exclusive namespace, and the `onUnreachable:
 * { mode: "stop" }` policy.
 *
 * @module
 */
import type { Clock } from "./clock.ts";
import type { UnreachablePolicy } from "./types.ts";

/** What {@linkcode Deadlines} needs. */
export interface DeadlinesOptions {
  readonly clock: Clock;
  readonly onUnreachable: UnreachablePolicy;
  /** Stops every processor (the deadline passed). */
  readonly expire: () => void;
  /** Whether the heartbeat loop still runs (the unreachable deadline is ignored once it stopped). */
  readonly looping: () => boolean;
}

/**
 * Both timers, rearmed at every answered heartbeat from the time it was sent.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { Deadlines } from "./_deadlines.ts";
 * import { systemClock } from "./clock.ts";
 *
 * let expired = 0;
 * const deadlines = new Deadlines({
 *   clock: systemClock,
 *   onUnreachable: { mode: "keep" },
 *   expire: () => expired++,
 *   looping: () => true,
 * });
 * deadlines.armLease(systemClock.now(), 1);
 * await new Promise((resolve) => setTimeout(resolve, 20));
 * assert.equal(expired, 1);
 * deadlines.clear();
 * ```
 */
export class Deadlines {
  readonly #o: DeadlinesOptions;
  #lease: unknown;
  #unreachable: unknown;

  /** No timer armed yet. */
  constructor(options: DeadlinesOptions) {
    this.#o = options;
  }

  /**
   * Exclusive namespaces: stop every processor once the lease has passed
   * since `sentAt`, the send time of the last answered heartbeat, whatever
   * `onUnreachable` says. The service moves the shards only after it has not
   * recorded a heartbeat for longer than the lease, and it records one only
   * after it was sent, so this deadline always comes first. An undefined
   * `leaseMs` (an available namespace) disarms it.
   */
  armLease(sentAt: number, leaseMs: number | undefined): void {
    const { clock } = this.#o;
    this.clearLease();
    if (leaseMs === undefined) return;
    this.#lease = clock.setTimeout(() => {
      this.#lease = undefined;
      this.#o.expire();
    }, Math.max(0, sentAt + leaseMs - clock.now()));
  }

  /** `onUnreachable: { mode: "stop", afterMs }`: stop every processor `afterMs` after `sentAt`. */
  armUnreachable(sentAt: number): void {
    const { clock, onUnreachable: policy } = this.#o;
    if (policy.mode !== "stop") return;
    clock.clearTimeout(this.#unreachable);
    this.#unreachable = clock.setTimeout(() => {
      if (this.#o.looping()) this.#o.expire();
    }, Math.max(0, sentAt + policy.afterMs - clock.now()));
  }

  /** Disarms the lease deadline. */
  clearLease(): void {
    this.#o.clock.clearTimeout(this.#lease);
    this.#lease = undefined;
  }

  /** Disarms the unreachable deadline. */
  clearUnreachable(): void {
    this.#o.clock.clearTimeout(this.#unreachable);
    this.#unreachable = undefined;
  }

  /** Disarms both. */
  clear(): void {
    this.clearLease();
    this.clearUnreachable();
  }
}
