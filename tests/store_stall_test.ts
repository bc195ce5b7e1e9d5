// deno-lint-ignore-file no-console -- each pause's outcome is printed for whoever reads the log
/**
 * Issue 37: a stall of the store never moves a healthy shard. etcd is paused
 * (SIGSTOP) for 1, 3, 6 and 20 s, each time at a random point of the pass
 * cycle, while every executor keeps heartbeating: no shard may move, in an
 * available namespace (simulated executors over gRPC) and in an exclusive
 * one (SDK executor processes, whose processors stop while their ownership
 * lease cannot be renewed and start again on the same executor), and no two
 * executors may ever run one exclusive shard at once.
 *
 * Before the fix, the leader judged liveness by its own clock: executors
 * whose heartbeats could not be recorded during the stall were declared
 * lost, and the commit landed when etcd resumed.
 */
import assert from "node:assert/strict";
import { startEtcdCluster, uniquePrefix } from "./support/etcd.ts";
import { connect } from "./support/grpc_clients.ts";
import { eventually, runExecutors } from "./support/executors.ts";
import { intervals, type Observed, overlaps } from "./support/ownership_recorder.ts";
import { startSdkProcess } from "./support/sdk_process.ts";
import { startInProcess, testConfigYaml } from "./support/service.ts";

const PERIOD_MS = 500;
const PAUSES_S = [1, 3, 6, 20];

Deno.test({
  name: "a store stall of 1, 3, 6 or 20 s moves no shard and never runs one exclusive shard twice",
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    await using etcd = await startEtcdCluster(1);
    const instance = await startInProcess(
      testConfigYaml({
        endpoints: etcd.endpoints,
        prefix: uniquePrefix("store-stall"),
        namespaces: [
          { name: "avail", type: "fixed", shardNum: 24 },
          {
            name: "excl",
            type: "fixed",
            shardNum: 6,
            ownership: "exclusive",
            ownershipLease: "3s",
          },
        ],
        process: { heartbeatTTL: "2s", period: `${PERIOD_MS}ms` },
      }),
      "stall-1",
    );
    const clients = connect(instance.server.address);
    const available = runExecutors(clients, "avail", ["a1", "a2", "a3"], { intervalMs: 300 });
    const exclusive: Observed[] = [];
    const member = etcd.members[0]!;
    let paused = false;
    try {
      for (const name of ["x1", "x2", "x3"]) {
        const process = await startSdkProcess("executor", {
          addresses: [instance.server.address],
          namespace: "excl",
          name,
          heartbeatIntervalMs: 300,
        });
        exclusive.push({ name, process });
      }
      // Shards each exclusive executor runs now.
      const runningNow = () =>
        exclusive.map(({ name }) =>
          intervals(exclusive).filter((i) => i.executor === name && i.stop === Infinity).length
        );
      const settled = async (what: string) => {
        await eventually(
          () => available.every((e) => e.shards.length === 8) && runningNow().every((n) => n === 2),
          60_000,
          () =>
            `${what}: every shard placed and running (available: ${
              available.map((e) => e.shards.length)
            }, exclusive running: ${runningNow()})`,
        );
      };
      await settled("before the pauses");
      const pausesFrom = Date.now();
      const owners = () => available.map((e) => [...e.shards].sort().join(","));
      const before = owners();
      const gained = () => available.reduce((n, e) => n + e.gained, 0);
      const gainedBefore = gained();

      for (const seconds of PAUSES_S) {
        // A random point of the pass cycle.
        await new Promise((resolve) => setTimeout(resolve, Math.random() * PERIOD_MS));
        await member.kill("SIGSTOP");
        paused = true;
        await new Promise((resolve) => setTimeout(resolve, seconds * 1_000));
        await member.kill("SIGCONT");
        paused = false;
        // Long enough for any loss the leader wrongly planned to land and show.
        await new Promise((resolve) => setTimeout(resolve, 5_000));
        await settled(`after a ${seconds} s pause`);
        console.log(`a ${seconds} s pause: available owners ${owners().join(" | ")}`);
        assert.deepEqual(owners(), before, `a shard moved after a ${seconds} s pause`);
        assert.equal(gained(), gainedBefore, `an executor gained a shard after ${seconds} s`);
      }

      const all = intervals(exclusive);
      assert.deepEqual(overlaps(all), [], "two executors ran one exclusive shard at once");
      // Where each exclusive shard ran from the first pause on (placement and balancing
      // before it may have moved it).
      const hosts = new Map<string, Set<string>>();
      for (const i of all.filter((i) => i.stop >= pausesFrom)) {
        hosts.set(i.shard, (hosts.get(i.shard) ?? new Set()).add(i.executor));
      }
      assert.equal(hosts.size, 6);
      for (const [shard, on] of hosts) {
        assert.equal(on.size, 1, `exclusive shard ${shard} moved: ran on ${[...on]}`);
      }
    } finally {
      if (paused) await member.kill("SIGCONT");
      for (const e of available) await e.stop();
      for (const { process } of exclusive) await process.kill("SIGTERM");
      clients.close();
      await instance.stop();
    }
  },
});
