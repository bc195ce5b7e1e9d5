/**
 * Lets a leader skip a periodic pass that cannot change anything. A pass is a
 * pure function of the namespace's picture and the time; when the last pass
 * committed nothing, no input changed since ({@linkcode NamespaceView.inputsVersion}),
 * no executor's liveness or retention has run out (or every executor whose
 * deadline passed was heard from in time, so none changed class) and the time
 * the plan asked to be woken at (an ownership lease running out) has not come,
 * planning again would give the same empty answer, at O(shards) cost (about
 * 350 ms at 1,000,000 shards).
 *
 * One gate serves all of an instance's terms for a namespace (the namespace
 * runtime keeps it): a leader claim is not an input of a pass, so when the
 * same instance wins again (every `leaderPeriod`, say) its first pass is
 * skipped as well when nothing changed since its last idle one.
 *
 * @module
 */
import type { ExecutorView, NamespaceView } from "../../state/namespace_view.ts";

/** What the gate needs to know of a pass. */
export interface PassOutcome {
  /** The pass committed or cleaned up something. */
  readonly didWork: boolean;
  /** The inputs version (see {@linkcode IdlePassGate.canSkip}) read before planning. */
  readonly inputsVersion: number;
  /** When the plan asked to be run again (a lease running out), if it did. */
  readonly wakeAtMs?: number | undefined;
}

/** Remembers the last idle pass and says whether the next one may be skipped. */
export class IdlePassGate {
  #state: NamespaceView | undefined;
  #version = -1;
  #deadline = -Infinity;
  #wakeAtMs = Infinity;
  /** Each executor's liveness class when the last idle pass was planned. */
  #classes = new Map<string, LivenessClass>();
  readonly #retentionMs: number;

  /** `retentionMs`: how long a stale executor is kept (the pass forgets it after). */
  constructor(retentionMs: number) {
    this.#retentionMs = retentionMs;
  }

  /** When the last idle pass asked to be run again, if it did (a new term's wake timer is set from it). */
  get wakeAtMs(): number | undefined {
    return this.#state && Number.isFinite(this.#wakeAtMs) ? this.#wakeAtMs : undefined;
  }

  /**
   * True when a pass over `state` at monotonic time `now` would plan nothing
   * new. `inputsVersion` counts every input of the pass: the state's own, plus
   * whatever else the pass reads (a cells namespace's pending moves).
   */
  canSkip(state: NamespaceView, now: number, inputsVersion = state.inputsVersion): boolean {
    if (state !== this.#state || inputsVersion !== this.#version) return false;
    if (now < this.#deadline) return true;
    if (now >= this.#wakeAtMs) return false;
    // A liveness deadline passed. A pass reads the time only through each executor's
    // class, and heartbeats may have renewed them all meanwhile: skip while none changed.
    for (const e of state.executors()) {
      if (this.#classes.get(e.executorId) !== this.#classOf(state, e, now)) return false;
    }
    this.#deadline = this.#nextDeadline(state, now);
    return true;
  }

  /** Notes a pass planned over `state` at `now`. */
  passed(state: NamespaceView, outcome: PassOutcome, now: number): void {
    if (outcome.didWork) {
      this.#state = undefined;
      return;
    }
    this.#state = state;
    this.#version = outcome.inputsVersion;
    this.#wakeAtMs = outcome.wakeAtMs ?? Infinity;
    this.#deadline = this.#nextDeadline(state, now);
    this.#classes.clear();
    for (const e of state.executors()) {
      this.#classes.set(e.executorId, this.#classOf(state, e, now));
    }
  }

  /** When time alone may next change what a pass sees. */
  #nextDeadline(state: NamespaceView, now: number): number {
    return Math.min(state.livenessDeadline(now, this.#retentionMs), this.#wakeAtMs);
  }

  #classOf(state: NamespaceView, executor: ExecutorView, now: number): LivenessClass {
    if (state.isAlive(executor, now)) return "alive";
    return now - executor.seenAtMs <= this.#retentionMs ? "stale" : "forgettable";
  }
}

/** How a pass sees an executor at a given time (see pass_planner.ts). */
type LivenessClass = "alive" | "stale" | "forgettable";
