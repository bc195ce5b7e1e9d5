/**
 * The recent changes that watchers see (owners, executors and their
 * metadata), tagged with the store revision they happened at, so spectator
 * fan-out can send a delta instead of the whole namespace. Bounded: when it
 * grows past its capacity the oldest half is dropped, and readers behind that
 * point get a full picture instead.
 *
 * @module
 */

/** One change a watcher sees. */
export type ViewChange =
  | {
    readonly kind: "owner";
    readonly shard: string;
    /** The primary owner, or undefined when the shard lost its owners. */
    readonly owner: string | undefined;
    /** Replicated namespaces: the full owner set, when it has more than one owner. */
    readonly owners?: readonly string[];
  }
  | {
    readonly kind: "executor";
    readonly executorId: string;
    /** The executor's metadata, or undefined when it was removed. */
    readonly metadata: Readonly<Record<string, string>> | undefined;
  }
  /** Key-range namespaces: the slice map changed (watchers get the whole new one). */
  | { readonly kind: "slices" };

/** Changes kept by default. */
export const VIEW_LOG_CAPACITY = 100_000;

/** A bounded log of view changes. */
export class ViewLog {
  #revisions: number[] = [];
  #changes: ViewChange[] = [];
  #head = 0;
  #completeAfter = 0;
  #capacity: number;

  /** Keeps at most about `capacity` changes. */
  constructor(capacity: number = VIEW_LOG_CAPACITY) {
    this.#capacity = capacity;
  }

  /** Forgets everything: changes up to `revision` are unknown from now on. */
  reset(revision: number): void {
    this.#revisions = [];
    this.#changes = [];
    this.#head = 0;
    this.#completeAfter = revision;
  }

  /** Records a change made at `revision` (never lower than earlier ones). */
  record(revision: number, change: ViewChange): void {
    this.#revisions.push(revision);
    this.#changes.push(change);
    if (this.#changes.length - this.#head > this.#capacity) this.#trim();
  }

  /**
   * The changes made after `revision`, oldest first, or undefined when some of
   * them are no longer kept.
   */
  since(revision: number): ViewChange[] | undefined {
    if (revision < this.#completeAfter) return undefined;
    let lo = this.#head, hi = this.#revisions.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.#revisions[mid]! <= revision) lo = mid + 1;
      else hi = mid;
    }
    return this.#changes.slice(lo);
  }

  #trim(): void {
    const drop = this.#head + Math.ceil((this.#changes.length - this.#head) / 2);
    // Never split one revision: readers resume from revision boundaries.
    let cut = drop;
    while (cut < this.#revisions.length && this.#revisions[cut] === this.#revisions[drop - 1]) {
      cut++;
    }
    this.#completeAfter = this.#revisions[cut - 1]!;
    this.#head = cut;
    if (this.#head > this.#capacity) {
      this.#revisions = this.#revisions.slice(this.#head);
      this.#changes = this.#changes.slice(this.#head);
      this.#head = 0;
    }
  }
}
