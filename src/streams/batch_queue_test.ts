import assert from "node:assert/strict";
import { BatchQueue } from "./batch_queue.ts";

Deno.test("batch queue gives a waiting reader the first pushed item at once", async () => {
  const queue = new BatchQueue<number>({ maxBatch: 10 });
  const reader = queue.readable.getReader();
  const read = reader.read();
  queue.push(1);
  assert.deepEqual(await read, { done: false, value: [1] });
  assert.equal(queue.size, 0);
});

Deno.test("batch queue delivers items pushed while the reader is busy as one batch", async () => {
  const queue = new BatchQueue<string>({ maxBatch: 100 });
  const batches: string[][] = [];
  let release!: () => void;
  const busy = new Promise<void>((resolve) => release = resolve);
  const first = Promise.withResolvers<void>();
  const written = queue.readable.pipeTo(
    new WritableStream({
      async write(batch) {
        batches.push(batch);
        first.resolve();
        if (batches.length === 1) await busy;
      },
    }),
  );
  queue.push("a");
  await first.promise;
  assert.deepEqual(batches, [["a"]]);
  for (const item of ["b", "c", "d"]) queue.push(item);
  assert.equal(queue.size, 3, "the items wait while the first batch is written");
  release();
  queue.close();
  await written;
  assert.deepEqual(batches, [["a"], ["b", "c", "d"]]);
});

Deno.test("batch queue never yields more than maxBatch items", async () => {
  const queue = new BatchQueue<number>({ maxBatch: 2 });
  for (let i = 1; i <= 5; i++) queue.push(i);
  queue.close();
  assert.deepEqual(await Array.fromAsync(queue.readable), [[1, 2], [3, 4], [5]]);
});

Deno.test("batch queue close ends the stream after the queued items", async () => {
  const queue = new BatchQueue<number>({ maxBatch: 10 });
  queue.push(1);
  queue.push(2);
  queue.close();
  assert.throws(() => queue.push(3), /closed/);
  assert.deepEqual(await Array.fromAsync(queue.readable), [[1, 2]]);
});

Deno.test("batch queue close wakes a reader waiting on an empty queue", async () => {
  const queue = new BatchQueue<number>({ maxBatch: 10 });
  const read = queue.readable.getReader().read();
  queue.close();
  assert.deepEqual(await read, { done: true, value: undefined });
});

Deno.test("batch queue rejects a maxBatch below one", () => {
  for (const maxBatch of [0, -1, NaN]) {
    assert.throws(() => new BatchQueue({ maxBatch }), RangeError);
  }
});

Deno.test("batch queue sits in a pipe chain: written items come out in batches, closing ends it", async () => {
  const source = ReadableStream.from([1, 2, 3, 4, 5]);
  const batches = await Array.fromAsync(
    source.pipeThrough(new BatchQueue<number>({ maxBatch: 2 })),
  );
  assert.deepEqual(batches.flat(), [1, 2, 3, 4, 5]);
  assert.ok(batches.every((batch) => batch.length >= 1 && batch.length <= 2));
});

Deno.test("batch queue sheds items past maxQueued to onOverflow, never blocking the writer", async () => {
  const shed: number[] = [];
  const queue = new BatchQueue<number>({
    maxBatch: 10,
    maxQueued: 3,
    onOverflow: (item) => shed.push(item),
  });
  const writer = queue.writable.getWriter();
  for (const item of [1, 2, 3, 4, 5]) await writer.write(item); // nobody reads yet
  assert.equal(queue.size, 3, "the queue holds at most maxQueued");
  assert.deepEqual(shed, [4, 5]);
  const reader = queue.readable.getReader();
  assert.deepEqual((await reader.read()).value, [1, 2, 3]);
  queue.push(6);
  assert.deepEqual((await reader.read()).value, [6], "room again once read");
  assert.deepEqual(shed, [4, 5]);
});

Deno.test("batch queue errors its readable side when its writable side is aborted", async () => {
  const queue = new BatchQueue<number>({ maxBatch: 10 });
  const reader = queue.readable.getReader();
  const read = reader.read();
  await queue.writable.abort(new Error("pipeline cancelled"));
  await assert.rejects(read, /pipeline cancelled/);
  assert.throws(() => queue.push(1), /closed/);
});

Deno.test("batch queue checks its options", () => {
  assert.throws(() => new BatchQueue({ maxBatch: 0 }), RangeError);
  assert.throws(() => new BatchQueue({ maxBatch: 1, maxQueued: 0 }), /maxQueued must be >= 1/);
  assert.throws(() => new BatchQueue({ maxBatch: 1, maxQueued: 5 }), /onOverflow is required/);
});
