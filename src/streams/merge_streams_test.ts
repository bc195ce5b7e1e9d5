import assert from "node:assert/strict";
import { mergeStreams } from "./merge_streams.ts";

/** A stream and the controller that feeds it. */
function source<T>() {
  let controller!: ReadableStreamDefaultController<T>;
  const cancelled: unknown[] = [];
  const stream = new ReadableStream<T>({
    start: (c) => {
      controller = c;
    },
    cancel: (reason) => {
      cancelled.push(reason);
    },
  });
  return { stream, controller, cancelled };
}

Deno.test("merge streams interleaves chunks in arrival order", async () => {
  const a = source<string>(), b = source<string>();
  const reader = mergeStreams(a.stream, b.stream).getReader();
  a.controller.enqueue("a1");
  assert.equal((await reader.read()).value, "a1");
  b.controller.enqueue("b1");
  assert.equal((await reader.read()).value, "b1");
  a.controller.enqueue("a2");
  assert.equal((await reader.read()).value, "a2");
  reader.releaseLock();
});

Deno.test("merge streams closes only when every source has closed", async () => {
  const a = source<number>(), b = source<number>();
  const reader = mergeStreams(a.stream, b.stream).getReader();
  a.controller.close();
  let done: boolean | undefined;
  const read = reader.read().then((r) => {
    done = r.done;
    return r;
  });
  await new Promise((resolve) => setTimeout(resolve, 0));
  assert.equal(done, undefined, "b is still open");
  b.controller.enqueue(7);
  assert.deepEqual(await read, { done: false, value: 7 });
  b.controller.close();
  assert.deepEqual(await reader.read(), { done: true, value: undefined });
});

Deno.test("merge streams of nothing closes at once", async () => {
  assert.deepEqual(await Array.fromAsync(mergeStreams<number>()), []);
});

Deno.test("merge streams delivers every chunk of finite sources", async () => {
  const merged = mergeStreams(ReadableStream.from([1, 2, 3]), ReadableStream.from([4, 5]));
  const all = await Array.fromAsync(merged);
  assert.deepEqual(all.toSorted(), [1, 2, 3, 4, 5]);
  assert.deepEqual(all.filter((n) => n <= 3), [1, 2, 3], "each source keeps its order");
});

Deno.test("merge streams errors when a source errors", async () => {
  const a = source<number>(), b = source<number>();
  const reader = mergeStreams(a.stream, b.stream).getReader();
  const boom = new Error("boom");
  b.controller.error(boom);
  await assert.rejects(reader.read(), (error) => error === boom);
  a.controller.close();
});

Deno.test("merge streams cancels every source when cancelled", async () => {
  const a = source<number>(), b = source<number>();
  await mergeStreams(a.stream, b.stream).cancel("done");
  assert.deepEqual(a.cancelled, ["done"]);
  assert.deepEqual(b.cancelled, ["done"]);
});
