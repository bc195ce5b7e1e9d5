/**
 * Executor hints: a stream per opted-in executor that says "your assignment
 * changed at revision r: heartbeat now". The namespace cache tells
 * {@linkcode AssignmentHints.notify} which executors a change concerns
 * (`state/assignment_touches.ts`), and only their streams are woken, so a
 * change costs what it touches, not the size of the namespace.
 *
 * Each stream is "latest value": it holds at most one undelivered hint (the
 * newest revision) and is pulled only as fast as its reader (the gRPC
 * stream's socket) drains, so a slow executor never queues hints. The first
 * hint is the current revision, at once: whatever changed between the
 * executor's last heartbeat and the stream's opening is covered by it.
 *
 * @module
 */
import { ResourceExhaustedError } from "../core/errors.ts";

/** One hint: the executor's assignment changed in the change committed at `revision`. */
export interface AssignmentHint {
  /** Store revision of the change (of the whole picture, for a stream's first hint). */
  readonly revision: number;
}

/** Hint streams one executor may hold open on one instance, by default. */
export const MAX_HINT_STREAMS_PER_EXECUTOR = 4;

/** Options of {@linkcode AssignmentHints}. */
export interface AssignmentHintsOptions {
  /** Streams one executor may hold open at once; one more is refused. @default {4} */
  readonly maxPerExecutor?: number;
}

interface Subscription {
  /** The newest revision not yet delivered. */
  pending: number | undefined;
  /** Wakes a pull waiting for a hint. */
  wake: (() => void) | undefined;
}

/**
 * The hint streams of one namespace on one instance.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { AssignmentHints } from "./assignment_hints.ts";
 *
 * const hints = new AssignmentHints("ns", () => 7);
 * const stop = new AbortController();
 * const reader = hints.subscribe("e1", stop.signal).getReader();
 * assert.deepEqual((await reader.read()).value, { revision: 7 }); // at once
 * hints.notify(new Set(["e2"]), 8); // not e1's change
 * hints.notify(new Set(["e1"]), 9);
 * assert.deepEqual((await reader.read()).value, { revision: 9 });
 * stop.abort();
 * assert.equal((await reader.read()).done, true);
 * assert.equal(hints.subscribers, 0);
 * ```
 */
export class AssignmentHints {
  readonly #namespace: string;
  readonly #revision: () => number;
  readonly #max: number;
  readonly #streams = new Map<string, Set<Subscription>>();
  #count = 0;

  /** Hints for `namespace`'s executors; `revision` reads the picture's current revision. */
  constructor(namespace: string, revision: () => number, options: AssignmentHintsOptions = {}) {
    const max = options.maxPerExecutor ?? MAX_HINT_STREAMS_PER_EXECUTOR;
    if (!Number.isInteger(max) || max < 1) {
      throw new RangeError(`maxPerExecutor must be an integer >= 1, got ${max}`);
    }
    this.#namespace = namespace;
    this.#revision = revision;
    this.#max = max;
  }

  /** Hint streams open now. */
  get subscribers(): number {
    return this.#count;
  }

  /**
   * A stream of hints for `executorId`: the current revision at once, then
   * the revision of every change that concerns it (coalesced to the newest
   * while the reader is busy). Ends when `signal` aborts. Throws a
   * `ResourceExhaustedError` when the executor already holds `maxPerExecutor`.
   */
  subscribe(executorId: string, signal: AbortSignal): ReadableStream<AssignmentHint> {
    let set = this.#streams.get(executorId);
    if (set !== undefined && set.size >= this.#max) {
      throw new ResourceExhaustedError(
        this.#namespace,
        "limit of assignment hint streams per executor",
        `executor ${
          JSON.stringify(executorId)
        } already has ${set.size} open (at most ${this.#max})`,
      );
    }
    if (set === undefined) this.#streams.set(executorId, set = new Set());
    const sub: Subscription = { pending: this.#revision(), wake: undefined };
    set.add(sub);
    this.#count++;
    let open = true;
    const ended = () => {
      if (!open) return;
      open = false;
      this.#count--;
      set.delete(sub);
      if (set.size === 0 && this.#streams.get(executorId) === set) this.#streams.delete(executorId);
      signal.removeEventListener("abort", ended);
      sub.wake?.();
    };
    signal.addEventListener("abort", ended, { once: true });
    if (signal.aborted) ended();
    return new ReadableStream<AssignmentHint>({
      pull: async (controller) => {
        while (open && sub.pending === undefined) {
          await new Promise<void>((resolve) => sub.wake = resolve);
          sub.wake = undefined;
        }
        if (!open) {
          try {
            controller.close();
          } catch { /* cancelled by the reader: already closed */ }
          return;
        }
        controller.enqueue({ revision: sub.pending! });
        sub.pending = undefined;
      },
      cancel: ended,
    }, { highWaterMark: 0 });
  }

  /**
   * Tells the streams of `executors` (every stream, for `"all"`: the picture
   * was reloaded) that their assignment changed at `revision`.
   */
  notify(executors: ReadonlySet<string> | "all", revision: number): void {
    if (this.#count === 0) return;
    if (executors === "all") {
      for (const set of this.#streams.values()) for (const sub of set) hint(sub, revision);
      return;
    }
    // Walk the smaller side: the change's executors, or the executors with streams.
    if (executors.size <= this.#streams.size) {
      for (const id of executors) {
        const set = this.#streams.get(id);
        if (set) { for (const sub of set) hint(sub, revision); }
      }
    } else {
      for (const [id, set] of this.#streams) {
        if (executors.has(id)) { for (const sub of set) hint(sub, revision); }
      }
    }
  }
}

function hint(sub: Subscription, revision: number): void {
  sub.pending = Math.max(sub.pending ?? 0, revision);
  sub.wake?.();
}
