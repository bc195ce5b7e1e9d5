/**
 * The soak's view of each namespace's assignment change log: one key per
 * change since the last fold, folded into a snapshot every
 * `COMPACT_EVERY` (64) changes. At the soak's change rate (about one a
 * minute per namespace) that sawtooth is about an hour long, so the log
 * rises across the whole soak by design and would read as a leak of store
 * keys. The soak therefore judges `etcd-keys` without the log's keys and
 * checks the log against its own bound instead: a namespace's log never
 * holds more than twice `COMPACT_EVERY` entries (a fold that fails, the
 * store being down, is retried at the next multiple).
 *
 * @module
 */
import { COMPACT_EVERY } from "../../src/leader/process/fenced_commit.ts";

/** The most entries a namespace's change log may hold. */
export const CHANGE_LOG_BOUND = 2 * COMPACT_EVERY;

/** The namespace of a change-log key's shape (`keyShape`), or undefined for other keys. */
export function changeLogNamespace(shape: string): string | undefined {
  return /(?:^|\/)([^/]+)\/assignment\/log\/N$/.exec(shape)?.[1];
}

/** A census split into the change log's keys per namespace and all other keys. */
export interface SplitCensus {
  /** Keys outside the change log. */
  readonly others: number;
  /** Change-log keys per namespace shape (digits written `N`). */
  readonly logs: ReadonlyMap<string, number>;
}

/**
 * Splits a census (counts by key shape) into the change log's keys and the rest.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { splitCensus } from "./change_log_keys.ts";
 *
 * const split = splitCensus({
 *   "store/ns/a/assignment/log/N": 5,
 *   "store/ns/a/assignment/snapshot": 1,
 *   "store/history/a/N-service-N.N-N": 7,
 * });
 * assert.equal(split.others, 8);
 * assert.deepEqual([...split.logs], [["a", 5]]);
 * ```
 */
export function splitCensus(census: Readonly<Record<string, number>>): SplitCensus {
  let others = 0;
  const logs = new Map<string, number>();
  for (const [shape, count] of Object.entries(census)) {
    const namespace = changeLogNamespace(shape);
    if (namespace === undefined) others += count;
    else logs.set(namespace, (logs.get(namespace) ?? 0) + count);
  }
  return { others, logs };
}

/** What the soak saw of one namespace's change log. */
export interface ChangeLogVerdict {
  readonly namespace: string;
  /** The most entries seen at once. */
  readonly max: number;
  /** Samples at which the log had shrunk since the one before (folds seen). */
  readonly folds: number;
  /** `max` passed {@linkcode CHANGE_LOG_BOUND}. */
  readonly overBound: boolean;
}

/** Follows each namespace's change-log size over the samples. */
export class ChangeLogWatch {
  readonly #last = new Map<string, number>();
  readonly #max = new Map<string, number>();
  readonly #folds = new Map<string, number>();

  /** Takes one sample's counts (a namespace absent from it has no log keys). */
  add(logs: ReadonlyMap<string, number>): void {
    for (const namespace of new Set([...this.#last.keys(), ...logs.keys()])) {
      const now = logs.get(namespace) ?? 0;
      const before = this.#last.get(namespace);
      if (before !== undefined && now < before) {
        this.#folds.set(namespace, (this.#folds.get(namespace) ?? 0) + 1);
      }
      this.#last.set(namespace, now);
      this.#max.set(namespace, Math.max(this.#max.get(namespace) ?? 0, now));
    }
  }

  /** One verdict per namespace seen, by name. */
  verdicts(): ChangeLogVerdict[] {
    return [...this.#max].map(([namespace, max]) => ({
      namespace,
      max,
      folds: this.#folds.get(namespace) ?? 0,
      overBound: max > CHANGE_LOG_BOUND,
    })).sort((a, b) => a.namespace.localeCompare(b.namespace));
  }
}
