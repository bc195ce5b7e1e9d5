/**
 * Merging streams.
 *
 * @module
 */

/**
 * Interleaves several streams into one, in arrival order; it closes when all
 * have closed, and errors when any errors.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { mergeStreams } from "./merge_streams.ts";
 * const merged = mergeStreams(ReadableStream.from([1]), ReadableStream.from([2]));
 * assert.equal((await Array.fromAsync(merged)).length, 2);
 * ```
 */
export function mergeStreams<T>(...streams: ReadableStream<T>[]): ReadableStream<T> {
  const readers = streams.map((s) => s.getReader());
  return new ReadableStream<T>({
    start(controller) {
      let open = readers.length;
      if (open === 0) controller.close();
      for (const reader of readers) {
        (async () => {
          while (true) {
            const { done, value } = await reader.read();
            if (done) break;
            controller.enqueue(value);
          }
          if (--open === 0) controller.close();
        })().catch((error) => {
          try {
            controller.error(error);
          } catch { /* already closed */ }
        });
      }
    },
    cancel(reason) {
      return Promise.all(readers.map((r) => r.cancel(reason))).then(() => {});
    },
  });
}
