/**
 * The sharded counter against a real Shard Manager started by the test kit
 * (`@shard-manager/testing`): two nodes in this process, each with its HTTP
 * server and executor, and a client routing through a spectator.
 */
import assert from "node:assert/strict";
import { Executor, Spectator } from "../../packages/sdk/mod.ts";
import { startTestShardManager, type TestShardManager } from "../../packages/testing/mod.ts";
import { CounterClient, type Router, shardOf } from "./client.ts";
import { CounterShards } from "./counter_shards.ts";
import { serveCounter } from "./http.ts";
import type { Counts, Snapshots } from "./snapshots.ts";

const SHARDS = 4;
const counter = { namespaces: [{ name: "counter", type: "fixed", shardNum: SHARDS }] };

/** Snapshots kept in a map, shared by the nodes of a test. */
function memorySnapshots(): Snapshots {
  const saved = new Map<string, Counts>();
  return {
    read: (shard) => Promise.resolve(saved.get(shard)),
    write: (shard, counts) => Promise.resolve(void saved.set(shard, counts)),
  };
}

/** A node: its shards, HTTP server and executor; disposed with the test. */
async function startNode(sm: TestShardManager, id: string, shards: CounterShards) {
  const server = serveCounter(shards);
  const address = `127.0.0.1:${server.addr.port}`;
  const executor = await new Executor({
    ...sm.executorOptions("counter"),
    executorId: id,
    metadata: { address, zone: "a" },
    processor: shards.processor,
  }).start();
  return {
    shards,
    address,
    async [Symbol.asyncDispose]() {
      await executor.shutdown();
      await server.shutdown();
    },
  };
}

Deno.test("requests are served warm by the owner and refused with 421 elsewhere", async () => {
  await using sm = await startTestShardManager(counter);
  await using one = await startNode(sm, "node-1", new CounterShards());
  await using two = await startNode(sm, "node-2", new CounterShards());
  await sm.setAssignment("counter", { "node-1": ["0", "1"], "node-2": ["2", "3"] });
  await sm.waitUntilSettled("counter");
  await sm.waitFor(() => one.shards.serving.length === 2 && two.shards.serving.length === 2, {
    what: "both nodes serving",
  });
  await using spectator = await new Spectator({
    addresses: [...sm.addresses],
    namespace: "counter",
  })
    .start({ timeoutMs: 10_000 });
  await sm.waitFor(() => spectator.ownerOf("3")?.executorId === "node-2", { what: "routes" });

  const client = new CounterClient(spectator, { shardCount: SHARDS });
  for (const expected of [1, 2, 3]) {
    const result = await client.increment("apples");
    assert.deepEqual({ ...result, latencyMs: 0 }, {
      outcome: "ok",
      served: true,
      attempts: 1,
      latencyMs: 0,
      value: expected,
    });
  }
  const shard = shardOf("apples", SHARDS);
  const elsewhere = spectator.ownerOf(shard)?.executorId === "node-1" ? two : one;
  const response = await fetch(`http://${elsewhere.address}/shards/${shard}/counters/apples`, {
    method: "POST",
  });
  assert.equal(response.status, 421);
  await response.body?.cancel();
});

Deno.test("a moved shard is cold on its new owner until loaded, with the counts it saved", async () => {
  await using sm = await startTestShardManager(counter);
  const snapshots = memorySnapshots();
  const served: string[] = [];
  await using one = await startNode(sm, "node-1", new CounterShards({ snapshots }));
  await using two = await startNode(
    sm,
    "node-2",
    new CounterShards({
      snapshots,
      loadMs: 400,
      onServing: (shard) => served.push(shard),
    }),
  );
  await sm.setAssignment("counter", { "node-1": ["0", "1", "2", "3"], "node-2": [] });
  await sm.waitFor(() => one.shards.serving.length === SHARDS, { what: "node-1 serving all" });
  const shard = shardOf("pears", SHARDS);
  const toOne: Router = { addressOf: () => one.address };
  const toTwo: Router = { addressOf: () => two.address };
  assert.equal(
    (await new CounterClient(toOne, { shardCount: SHARDS }).increment("pears")).value,
    1,
  );

  const rest = ["0", "1", "2", "3"].filter((s) => s !== shard);
  await sm.setAssignment("counter", { "node-1": rest, "node-2": [shard] });
  await sm.waitFor(() => two.shards.loading.includes(shard), { what: "node-2 loading the shard" });
  const cold = await new CounterClient(toTwo, { shardCount: SHARDS }).increment("pears");
  assert.equal(cold.outcome, "cold");
  assert.equal(cold.value, 2, "the new owner loaded what the old one saved");
  assert.ok(cold.latencyMs > 0);
  assert.deepEqual(served, [shard]);

  // The old owner refuses it now: the client's first attempt fails and a retry goes to the owner.
  let asked = 0;
  const stale: Router = { addressOf: () => asked++ === 0 ? one.address : two.address };
  const retried = await new CounterClient(stale, { shardCount: SHARDS, retryDelayMs: 1 })
    .increment("pears");
  assert.deepEqual([retried.outcome, retried.served, retried.attempts, retried.value], [
    "failed",
    true,
    2,
    3,
  ]);
});

Deno.test("bad options are refused with a message naming them", () => {
  assert.throws(() => new CounterShards({ loadMs: -1 }), /loadMs must be .* got -1/);
  const router: Router = { addressOf: () => undefined };
  assert.throws(() => new CounterClient(router, { shardCount: 0 }), /shardCount .* got 0/);
  assert.throws(
    () => new CounterClient(router, { shardCount: 2.5 }),
    /shardCount must be an integer, got 2.5/,
  );
});

Deno.test("warm handover: prepare warms a shard up without serving it; a called-off prepare ends", async () => {
  const snapshots = memorySnapshots();
  await snapshots.write("2", { apples: 4 });
  const shards = new CounterShards({ loadMs: 10, snapshots });
  const ctx = {
    shardKey: "2",
    namespace: "counter",
    executorId: "n",
    fencingToken: "9",
    signal: new AbortController().signal,
    currentOwner: () => Promise.resolve(undefined),
  };
  assert.deepEqual(await shards.prepare(ctx), { counts: { apples: 4 } });
  assert.deepEqual(shards.serving, [], "prepared, not served");
  assert.deepEqual(await shards.increment("2", "apples"), { state: "not-serving" });
  await assert.rejects(async () => await shards.prepare({ ...ctx, signal: AbortSignal.abort() }));
});

Deno.test("warm handover: a prepared shard serves at once, with the counts its old owner saved last", async () => {
  const snapshots = memorySnapshots();
  await snapshots.write("2", { apples: 5 }); // the old owner saved on its way out
  const shards = new CounterShards({ loadMs: 60_000, snapshots });
  const stop = new AbortController();
  const timer = Promise.withResolvers<string>();
  const handle = setTimeout(() => timer.resolve("waited for the warm-up"), 2_000);
  const started = await Promise.race([
    shards.processor({
      shardKey: "2",
      namespace: "counter",
      executorId: "n",
      fencingToken: "9",
      signal: stop.signal,
      prepared: { counts: { apples: 4 } },
      reportLoad() {},
      slice: undefined,
      contains: () => true,
      reportKeyLoad() {},
      done() {},
    }),
    timer.promise,
  ]);
  clearTimeout(handle);
  assert.notEqual(started, "waited for the warm-up");
  assert.deepEqual(await shards.increment("2", "apples"), { state: "warm", value: 6 });
  stop.abort();
});

Deno.test("a request for a shard prepared here waits for its processor to start", async () => {
  const shards = new CounterShards();
  const controller = new AbortController();
  const prepared = await shards.prepare({
    shardKey: "3",
    namespace: "ns",
    executorId: "b",
    fencingToken: "9",
    signal: controller.signal,
    currentOwner: () => Promise.resolve(undefined),
  });
  // The router switched first: the request arrives before the processor starts.
  const early = shards.increment("3", "apples");
  const stopped = new AbortController();
  await shards.processor({
    shardKey: "3",
    namespace: "ns",
    executorId: "b",
    fencingToken: "9",
    signal: stopped.signal,
    prepared,
    reportLoad() {},
    slice: undefined,
    contains: () => true,
    reportKeyLoad() {},
    done() {},
  });
  assert.deepEqual(await early, { state: "warm", value: 1 });
  // A shard neither held nor prepared here is refused at once.
  assert.deepEqual(await shards.increment("4", "apples"), { state: "not-serving" });
  stopped.abort();
});
