/**
 * A promise raced against a timer on a {@linkcode Clock}.
 *
 * @module
 */
import type { Clock } from "./clock.ts";

/**
 * Settles like `promise`, or rejects with `timeoutError()` once `ms` pass on
 * `clock` (calling `onTimeout` first). The timer is cleared either way.
 */
export function withTimeout<T>(
  promise: Promise<T>,
  ms: number,
  clock: Clock,
  timeoutError: () => Error,
  onTimeout?: () => void,
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const handle = clock.setTimeout(() => {
      onTimeout?.();
      reject(timeoutError());
    }, ms);
    promise.then(
      (value) => {
        clock.clearTimeout(handle);
        resolve(value);
      },
      (error) => {
        clock.clearTimeout(handle);
        reject(error);
      },
    );
  });
}
