/**
 * Waiting for several named tasks to end, for a bounded time, and learning
 * which did not: how an instance stops when something it waits for is stuck
 * (a call to a store that is gone), without hanging and without hiding it.
 *
 * @module
 */
import { type Clock, sleep, systemClock } from "./clock.ts";

/** What {@linkcode settleWithin} found. */
export interface Settled {
  /** Names of the tasks still running when the time ran out, in the given order. */
  readonly pending: string[];
  /** The tasks that failed, by name, in the given order. */
  readonly failed: { readonly name: string; readonly error: unknown }[];
}

/**
 * Waits until every task in `tasks` has settled, or `ms` have passed;
 * `undefined` tasks count as done. Never rejects: failures are returned.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { settleWithin } from "./settle_within.ts";
 *
 * const settled = await settleWithin({
 *   quick: Promise.resolve(),
 *   broken: Promise.reject(new Error("no")),
 *   stuck: new Promise(() => {}),
 * }, 10);
 * assert.deepEqual(settled.pending, ["stuck"]);
 * assert.deepEqual(settled.failed.map((f) => f.name), ["broken"]);
 * ```
 */
export async function settleWithin(
  tasks: Readonly<Record<string, Promise<unknown> | undefined>>,
  ms: number,
  clock: Clock = systemClock,
): Promise<Settled> {
  const names = Object.keys(tasks);
  const done = new Set<string>();
  const failed = new Map<string, unknown>();
  const all = Promise.all(names.map((name) =>
    Promise.resolve(tasks[name]).then(
      () => void done.add(name),
      (error) => {
        failed.set(name, error);
        done.add(name);
      },
    )
  ));
  const timeUp = new AbortController();
  try {
    await Promise.race([all, sleep(ms, timeUp.signal, clock).catch(() => {})]);
  } finally {
    timeUp.abort();
  }
  return {
    pending: names.filter((name) => !done.has(name)),
    failed: names.filter((name) => failed.has(name)).map((name) => ({
      name,
      error: failed.get(name),
    })),
  };
}
