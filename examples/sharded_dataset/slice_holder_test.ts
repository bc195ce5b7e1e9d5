/**
 * The sharded dataset's shard logic against a real Shard Manager started by
 * the test kit (`@shard-manager/testing`): no etcd, no child processes.
 */
import assert from "node:assert/strict";
import { Executor } from "../../packages/sdk/mod.ts";
import { startTestShardManager } from "../../packages/testing/mod.ts";
import { SliceHolder } from "./slice_holder.ts";

const SLICES = 6;
const dataset = { namespaces: [{ name: "dataset", type: "fixed", shardNum: SLICES }] };

Deno.test("a node holds in memory exactly the slices of the shards it owns", async () => {
  await using sm = await startTestShardManager(dataset);
  const holder = new SliceHolder(SLICES, { total: 600, chunkDelayMs: 0 });
  await using executor = new Executor({
    ...sm.executorOptions("dataset"),
    executorId: "node-1",
    processor: holder.processor,
  });
  await executor.start();
  await sm.waitUntilSettled("dataset");
  await sm.waitFor(() => holder.held.size === SLICES, { what: "every slice in memory" });
  for (const [slice, orders] of holder.held) {
    assert.equal(orders.length, 100);
    assert.ok(orders.every((order) => order.id % SLICES === slice), `slice ${slice}`);
  }

  // Another node joins: the slices that move there leave this node's memory.
  await sm.addExecutor("dataset", { executorId: "node-2" });
  await sm.waitUntilSettled("dataset");
  const mine = sm.shardsOf("dataset", "node-1").map(Number).sort((a, b) => a - b);
  assert.equal(mine.length, SLICES / 2);
  await sm.waitFor(() => holder.held.size === mine.length, { what: "moved slices released" });
  assert.deepEqual([...holder.held.keys()].sort((a, b) => a - b), mine);

  // The other node is lost: its slices come back and are loaded again.
  await sm.expireExecutor("dataset", "node-2");
  await sm.waitFor(() => holder.held.size === SLICES, { what: "every slice back in memory" });
});

Deno.test("a slice moved by the operator is released here and loaded there", async () => {
  await using sm = await startTestShardManager(dataset);
  const released: string[] = [];
  const holder = new SliceHolder(SLICES, {
    total: 600,
    chunkDelayMs: 0,
    onStop: (slice, reason) => released.push(`${slice}:${reason}`),
  });
  await using executor = new Executor({
    ...sm.executorOptions("dataset"),
    executorId: "node-1",
    processor: holder.processor,
  });
  await executor.start();
  const other = await sm.addExecutor("dataset", { executorId: "node-2" });
  await sm.waitUntilSettled("dataset");
  await sm.setAssignment("dataset", {
    "node-1": ["0", "1", "2", "3", "4"],
    "node-2": ["5"],
  });
  await sm.waitUntilSettled("dataset");
  await sm.waitFor(() => holder.held.size === 5, { what: "five slices here" });
  assert.ok(!holder.held.has(5));
  assert.deepEqual(other.runningShards, ["5"]);
  assert.ok(released.every((entry) => entry.endsWith(":unassigned")), released.join(", "));
});
