import assert from "node:assert/strict";
import { testExecutor as setup } from "./_testing.ts";

const HALF = 1n << 63n;
const LAST = (1n << 64n) - 1n;

Deno.test("a key-range processor sees its slice, refuses foreign keys, and its key loads are reported", async () => {
  const { time, service, executor, contexts, shutdown } = setup({}, { shards: ["0", "1"] });
  service.keyRanges.set("0", { firstPoint: "0", lastPoint: String(HALF - 1n), generation: 0 });
  service.keyRanges.set("1", { firstPoint: String(HALF), lastPoint: String(LAST), generation: 0 });
  executor.start();
  await time.tickAsync(0);
  const ctx = contexts.find((c) => c.shardKey === "0")!;
  assert.deepEqual(ctx.slice, { id: 0, start: 0n, end: HALF, generation: 0 });
  // Keys split between the two slices by their hash; each slice contains exactly its own.
  const keys = Array.from({ length: 40 }, (_, i) => `user:${i}`);
  const mine = keys.filter((k) => ctx.contains(k));
  const other = contexts.find((c) => c.shardKey === "1")!;
  assert.ok(mine.length > 0 && mine.length < keys.length);
  for (const key of keys) assert.notEqual(ctx.contains(key), other.contains(key));

  for (const key of mine) ctx.reportKeyLoad(key);
  ctx.reportKeyLoad(mine[0]!, 50); // one hot key
  assert.throws(() => ctx.reportKeyLoad("x", -1), /Key load must be a finite number >= 0/);
  await time.tickAsync(1_000);
  const report = service.requests.at(-1)!.shardStatusReports["0"]!;
  assert.ok(report.shardLoad > 0);
  assert.equal(report.topKeys?.[0]?.key, mine[0]);

  // A split shrinks the slice in place: the processor keeps running and sees the new range.
  service.keyRanges.set("0", { firstPoint: "0", lastPoint: String(HALF / 2n - 1n), generation: 1 });
  await time.tickAsync(1_000);
  assert.deepEqual(ctx.slice, { id: 0, start: 0n, end: HALF / 2n, generation: 1 });
  assert.equal(ctx.signal.aborted, false);
  await shutdown();
});

Deno.test("outside key-range namespaces a processor has no slice and contains every key", async () => {
  const { time, executor, contexts, shutdown } = setup();
  executor.start();
  await time.tickAsync(0);
  const ctx = contexts[0]!;
  assert.equal(ctx.slice, undefined);
  assert.equal(ctx.contains("anything"), true);
  ctx.reportKeyLoad("anything", 3); // ignored
  await shutdown();
});
