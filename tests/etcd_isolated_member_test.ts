/**
 * An etcd member cut off from its peers (chaos kind `etcd-member-isolated`)
 * while the service still reaches it: real etcd members in network
 * namespaces, the member's peer traffic dropped with nftables. Calls through
 * it must fail fast ("no leader") so that the client turns to a member of
 * the majority, instead of hanging until the call deadline or serving a
 * watch that no longer moves. As root only (namespaces); skipped elsewhere.
 */
import assert from "node:assert/strict";
import { createEtcdClient, EtcdStore } from "../src/store/etcd/mod.ts";
import { HEARTBEAT_WRITE_TIMEOUT_MS } from "../src/store/etcd/executor_writes.ts";
import { NetLab, type NetNode, netnsUnsupported } from "./chaos/netns.ts";
import { applyRules } from "./chaos/nft.ts";
import { type EtcdCluster, startEtcdCluster, uniquePrefix } from "./support/etcd.ts";

const unsupported = await netnsUnsupported();
const name = (text: string) => unsupported ? `${text} (skipped: ${unsupported})` : text;

async function isolatedCluster(lab: NetLab): Promise<EtcdCluster> {
  const nodes: NetNode[] = [];
  for (let i = 0; i < 3; i++) nodes.push(await lab.addNode(`etcd-${i}`, 10 + i));
  return await startEtcdCluster(3, {
    hosts: nodes.map((n) => n.address),
    wrap: (i, command) => lab.command(nodes[i]!, command),
  });
}

async function timed(fn: () => Promise<unknown>): Promise<{ ms: number; error?: unknown }> {
  const t0 = Date.now();
  try {
    await fn();
    return { ms: Date.now() - t0 };
  } catch (error) {
    return { ms: Date.now() - t0, error };
  }
}

Deno.test({
  name: name("a call through an etcd member cut from its peers fails fast instead of hanging"),
  ignore: unsupported !== undefined,
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    await using lab = await NetLab.create();
    await using etcd = await isolatedCluster(lab);
    const prefix = uniquePrefix("isolated member");
    const [m0, m1, m2] = lab.nodes;
    const only = createEtcdClient({ endpoints: [etcd.endpoints[1]!], dialTimeoutMs: 1_000 });
    const all = createEtcdClient({ endpoints: etcd.endpoints, dialTimeoutMs: 1_000 });
    try {
      await only.put(`${prefix}/k`).value("before");
      const watcher = await only.watch().key(`${prefix}/k`).create();
      let disconnected: unknown;
      watcher.on("disconnected", (error) => disconnected ??= error);
      await applyRules(m1!.netns, [{ kind: "partition", peers: [m0!.address, m2!.address] }]);
      // The member notices after an election timeout (1-2 s) that it has no leader.
      await new Promise((resolve) => setTimeout(resolve, 3_000));

      const read = await timed(() => only.get(`${prefix}/k`).string());
      assert.ok(read.error !== undefined, `a read through the isolated member failed`);
      assert.match(
        String(read.error),
        /no leader/,
        `it says why (after ${read.ms} ms: ${read.error})`,
      );
      assert.ok(read.ms < 2_000, `it failed in ${read.ms} ms, not at the call deadline`);

      // The watch it served is ended, so its owner notices (it would otherwise just go quiet).
      // etcd ends such streams after 3 election timeouts without a leader.
      for (let i = 0; i < 100 && disconnected === undefined; i++) {
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      assert.match(String(disconnected), /no leader/, "the watch through it was ended");
      await watcher.cancel().catch(() => {});

      // Through all three endpoints every call lands on the majority, none waits for the deadline.
      let slowest = 0;
      for (let i = 0; i < 12; i++) {
        const call = await timed(() => all.put(`${prefix}/n${i}`).value(String(i)).exec());
        assert.equal(call.error, undefined, `put ${i}: ${call.error}`);
        slowest = Math.max(slowest, call.ms);
      }
      assert.ok(slowest < 3_000, `slowest call ${slowest} ms`);
    } finally {
      only.close();
      all.close();
    }
  },
});

Deno.test({
  name: name("a heartbeat write on a member that is just being cut off fails within its deadline"),
  ignore: unsupported !== undefined,
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    await using lab = await NetLab.create();
    await using etcd = await isolatedCluster(lab);
    const [m0, m1, m2] = lab.nodes;
    const client = createEtcdClient({ endpoints: [etcd.endpoints[1]!], dialTimeoutMs: 1_000 });
    const store = new EtcdStore(client, uniquePrefix("heartbeat deadline"));
    const write = () =>
      store.writeExecutors("ns", [{
        executorId: "e1",
        heartbeat: { status: "ACTIVE", timestampMs: Date.now() },
      }]);
    try {
      await write();
      await applyRules(m1!.netns, [{ kind: "partition", peers: [m0!.address, m2!.address] }]);
      // The member still believes in its leader: etcd would answer after its request timeout (~7 s).
      const call = await timed(write);
      assert.ok(call.error !== undefined, "the write through the cut-off member failed");
      assert.ok(
        call.ms < HEARTBEAT_WRITE_TIMEOUT_MS + 1_000,
        `it failed after ${call.ms} ms, within the heartbeat deadline: ${call.error}`,
      );
    } finally {
      client.close();
    }
  },
});
