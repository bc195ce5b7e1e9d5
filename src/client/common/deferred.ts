/**
 * A promise with its resolve and reject functions, as
 * `Promise.withResolvers()` gives them; that is missing from Node.js 20,
 * which the SDKs support.
 *
 * @module
 */

/** A promise and the functions that settle it. */
export interface Deferred<T> {
  /** Settles when `resolve` or `reject` is called. */
  readonly promise: Promise<T>;
  /** Fulfils `promise`. */
  readonly resolve: (value: T | PromiseLike<T>) => void;
  /** Rejects `promise`. */
  readonly reject: (reason?: unknown) => void;
}

/**
 * A new {@linkcode Deferred}.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { deferred } from "./deferred.ts";
 *
 * const ready = deferred<number>();
 * ready.resolve(7);
 * assert.equal(await ready.promise, 7);
 * ```
 */
export function deferred<T>(): Deferred<T> {
  let resolve!: (value: T | PromiseLike<T>) => void;
  let reject!: (reason?: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}
