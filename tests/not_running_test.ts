// deno-lint-ignore-file no-console -- the timings are printed for whoever reads the log
/**
 * Issue 37: in an exclusive namespace, shards that are owned but not running
 * show as such. A real SDK executor process heartbeats to a real service on
 * real etcd:
 *
 * - etcd is paused (SIGSTOP) for 6 s: the executor's processors stop once
 *   its ownership lease lapses, and within 2 s of the stop
 *   `sm_shards_not_running`, the namespace's stats and the executor's view
 *   (what `smctl` shows) count every shard not running; after the resume they
 *   go back to 0, and the history holds one event for the stop and one for
 *   the restart (written once the store answers again);
 * - a processor that fails to start leaves its shard owned but not running.
 *
 * Both fail before this change: nothing counted shards not running.
 */
import assert from "node:assert/strict";
import { startEtcdCluster, uniquePrefix } from "./support/etcd.ts";
import { eventually } from "./support/executors.ts";
import { startSdkProcess } from "./support/sdk_process.ts";
import { startInProcess, testConfigYaml } from "./support/service.ts";

const SHARDS = 4;

async function setup(name: string) {
  const etcd = await startEtcdCluster(1);
  const instance = await startInProcess(
    testConfigYaml({
      endpoints: etcd.endpoints,
      prefix: uniquePrefix(name),
      namespaces: [{
        name: "excl",
        type: "fixed",
        shardNum: SHARDS,
        ownership: "exclusive",
        ownershipLease: "2s",
      }],
      process: { heartbeatTTL: "2s", period: "500ms" },
    }),
    name,
  );
  return { etcd, instance };
}

async function scrape(httpAddress: string): Promise<number> {
  const text = await (await fetch(`http://${httpAddress}/metrics`)).text();
  const line = text.split("\n").find((l) =>
    l.startsWith('sm_shards_not_running{namespace="excl"}')
  );
  return Number(line?.split(" ").at(-1) ?? NaN);
}

Deno.test({
  name: "a 6 s etcd pause: shards stopped on their lease show as not running within 2 s, then 0",
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    const { etcd, instance } = await setup("not-running-stall");
    const member = etcd.members[0]!;
    const manager = instance.manager;
    let paused = false;
    const executor = await startSdkProcess("executor", {
      addresses: [instance.server.address],
      namespace: "excl",
      name: "x1",
      heartbeatIntervalMs: 300,
    });
    try {
      const running = () => {
        const open = new Set<string>();
        for (const e of executor.events) {
          if (e.event === "start") open.add(e.shard!);
          if (e.event === "stop") open.delete(e.shard!);
        }
        return open.size;
      };
      await eventually(() => running() === SHARDS, 60_000, () => `${running()} shards run`);
      await eventually(() => manager.routing.namespaceStats("excl").notRunningShards === 0, 10_000);
      assert.equal(await scrape(instance.http.address), 0);

      const pausedAt = Date.now();
      await member.kill("SIGSTOP");
      paused = true;
      let seenAt = 0, viewCount = 0, metric = NaN;
      while (Date.now() - pausedAt < 6_000) {
        if (seenAt === 0 && manager.routing.namespaceStats("excl").notRunningShards === SHARDS) {
          seenAt = Date.now();
          viewCount = manager.routing.getExecutorState("excl", "x1").notRunningShards ?? 0;
          metric = await scrape(instance.http.address);
        }
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      await member.kill("SIGCONT");
      paused = false;
      const stops = executor.events.filter((e) => e.event === "stop" && e.at >= pausedAt);
      assert.equal(stops.length, SHARDS, "every processor stopped on its lease during the pause");
      const lastStop = Math.max(...stops.map((e) => e.at));
      console.log(
        `processors stopped ${lastStop - pausedAt} ms into the pause; ` +
          `counted not running ${seenAt - lastStop} ms after the last stop`,
      );
      assert.ok(seenAt > 0, "shards were never counted not running during the pause");
      assert.ok(seenAt - lastStop <= 2_000, `counted ${seenAt - lastStop} ms after the stop`);
      assert.equal(viewCount, SHARDS, "the executor's view (smctl executor describe)");
      assert.equal(metric, SHARDS, "sm_shards_not_running");

      await eventually(() => running() === SHARDS, 20_000, () => `${running()} run again`);
      await eventually(() => manager.routing.namespaceStats("excl").notRunningShards === 0, 10_000);
      assert.equal(await scrape(instance.http.address), 0);
      await eventually(
        async () => {
          const types = (await manager.history.read("excl")).map((e) => e.type);
          return types.includes("shards_not_running") && types.includes("shards_running_again");
        },
        20_000,
        () => "history events of the stop and the restart",
      );
      const events = (await manager.history.read("excl")).filter((e) =>
        e.type === "shards_not_running" || e.type === "shards_running_again"
      );
      console.log(events.map((e) => `${e.type}: ${e.text}`).join("\n"));
      assert.equal(events.length, 2, "one event for the stop, one for the restart");
      assert.equal(events[0]?.executorId, "x1");
      assert.deepEqual(events[0]?.shardKeys, ["0", "1", "2", "3"]);
    } finally {
      if (paused) await member.kill("SIGCONT");
      await executor.kill("SIGTERM");
      await instance.stop();
      await etcd[Symbol.asyncDispose]();
    }
  },
});

Deno.test({
  name: "a processor that fails to start leaves its shard owned but not running",
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    const { etcd, instance } = await setup("not-running-failed");
    const manager = instance.manager;
    const executor = await startSdkProcess("executor", {
      addresses: [instance.server.address],
      namespace: "excl",
      name: "x1",
      heartbeatIntervalMs: 300,
      failStarts: ["2"],
    });
    try {
      await eventually(
        () => executor.events.filter((e) => e.event === "start").length === SHARDS - 1,
        60_000,
      );
      await eventually(() => manager.routing.namespaceStats("excl").notRunningShards === 1, 10_000);
      assert.equal(await scrape(instance.http.address), 1);
      const view = manager.routing.getExecutorState("excl", "x1");
      assert.equal(view.notRunningShards, 1);
      assert.deepEqual(view.assignedShards.filter((s) => s.notRunning).map((s) => s.shardKey), [
        "2",
      ]);
      assert.equal(manager.routing.inspectShard("excl", "2").notRunning, true);
      assert.equal(manager.routing.inspectShard("excl", "2").status, "NOT_RUNNING");
      assert.equal(manager.routing.inspectShard("excl", "1").notRunning, undefined);
    } finally {
      await executor.kill("SIGTERM");
      await instance.stop();
      await etcd[Symbol.asyncDispose]();
    }
  },
});
