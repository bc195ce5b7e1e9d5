/**
 * An instance cut off from etcd while its executors still reach it (chaos
 * kind `instance-etcd-partition`): etcd runs in a network namespace whose
 * packets to and from the instance are dropped with nftables, so etcd neither
 * answers nor refuses (unlike a stopped etcd). The instance must stop
 * answering heartbeats as if it had recorded them: an answered heartbeat
 * that is never written lets the executor look dead to the other instances
 * while it is told all is well, so it would not move to an instance that can
 * record it. As root only (namespaces); skipped elsewhere.
 */
import assert from "node:assert/strict";
import { NetLab, netnsUnsupported } from "./chaos/netns.ts";
import { applyRules } from "./chaos/nft.ts";
import { startEtcdCluster, uniquePrefix } from "./support/etcd.ts";
import { connect, heartbeat } from "./support/grpc_clients.ts";
import { startInProcess, testConfigYaml } from "./support/service.ts";

const unsupported = await netnsUnsupported();

/** The longest an instance may keep answering after its store went silent (1 s of silence, a 250 ms pulse), ms. */
const REFUSE_WITHIN_MS = 1_500;

Deno.test({
  name: "an instance cut off from etcd refuses heartbeats it cannot record" +
    (unsupported ? ` (skipped: ${unsupported})` : ""),
  ignore: unsupported !== undefined,
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    await using lab = await NetLab.create();
    const node = await lab.addNode("etcd-0", 10);
    await using etcd = await startEtcdCluster(1, {
      hosts: [node.address],
      wrap: (_i, command) => lab.command(node, command),
    });
    const instance = await startInProcess(testConfigYaml({
      endpoints: etcd.endpoints,
      prefix: uniquePrefix("instance etcd partition"),
      namespaces: [{ name: "ns", type: "fixed", shardNum: 4 }],
      process: { heartbeatTTL: "3s" },
    }));
    const clients = connect(instance.server.address);
    const beat = () =>
      heartbeat(clients, { namespace: "ns", executorId: "x", status: "EXECUTOR_STATUS_ACTIVE" })
        .then(() => "ok" as const, (e: Error) => e.message);
    try {
      // Settle: the executor owns the shards and its heartbeats change nothing (refreshes only).
      for (let i = 0; i < 10; i++) {
        assert.equal(await beat(), "ok");
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
      await applyRules(node.netns, [{ kind: "partition", peers: [lab.gateway] }]);
      const cut = Date.now();
      const answered: number[] = [];
      const refused: string[] = [];
      while (Date.now() - cut < 5_000) {
        const sent = Date.now() - cut;
        const outcome = await beat();
        if (outcome === "ok") answered.push(sent);
        else refused.push(outcome);
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
      const late = answered.filter((sent) => sent > REFUSE_WITHIN_MS);
      assert.deepEqual(late, [], `heartbeats sent at ${late.join(", ")} ms were answered`);
      assert.ok(refused.length > 0, "heartbeats were refused");
      assert.match(refused.at(-1)!, /UNAVAILABLE|unreachable/i);
    } finally {
      clients.close();
      await instance.stop();
    }
  },
});
