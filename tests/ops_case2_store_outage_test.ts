/**
 * Issue 16, case 2: an etcd outage must not look like every host died. With
 * etcd paused (SIGSTOP), an instance cannot read its store, so the liveness
 * of executors that were alive at its last good read is UNKNOWN (smctl,
 * metrics, dashboard API, leader), and an executor is stale only on evidence:
 * its heartbeats had stopped before the outage.
 */
import assert from "node:assert/strict";
import { startEtcdCluster, uniquePrefix } from "./support/etcd.ts";
import { connect } from "./support/grpc_clients.ts";
import { eventually, runExecutors } from "./support/executors.ts";
import { startInProcess, testConfigYaml } from "./support/service.ts";
import { json, smctl, tableRows } from "./support/smctl.ts";

interface Listed {
  executors: { id: string; alive: boolean; liveness?: string; unknownSince?: string | null }[];
}

Deno.test("case 2: while etcd is paused liveness is UNKNOWN, not stale, everywhere", async () => {
  await using etcd = await startEtcdCluster(1);
  const instance = await startInProcess(testConfigYaml({
    endpoints: etcd.endpoints,
    prefix: uniquePrefix("ops-case2"),
    namespaces: [{ name: "ns", type: "fixed", shardNum: 6 }],
    process: { heartbeatTTL: "2s" },
    electionTTL: "30s",
  }));
  const clients = connect(instance.server.address);
  const executors = runExecutors(clients, "ns", ["a", "b", "gone"], { intervalMs: 200 });
  const address = instance.server.address;
  const http = `http://${instance.http.address}`;
  const run = (args: string[]) => smctl(["--address", address, "-n", "ns", ...args]);
  const list = async () => json<Listed>(await run(["executor", "list", "--json"])).executors;
  const liveness = async () =>
    Object.fromEntries(
      (await list()).map((e) => [e.id, e.liveness ?? (e.alive ? "alive" : "stale")]),
    );
  const member = etcd.members[0]!;
  let paused = false;
  try {
    await eventually(() => executors.every((e) => e.shards.length > 0), 15_000, "shards placed");
    // "gone" stops before the outage: its staleness is evidence, and stays so.
    await executors[2]!.stop();
    await eventually(async () => (await liveness()).gone === "stale", 15_000, "gone is stale");
    // Let a probe of the store succeed after that (one probe interval), so the
    // last good read already saw "gone" stale.
    await new Promise((resolve) => setTimeout(resolve, 3_000));

    const beforeOutage = Date.now();
    await member.kill("SIGSTOP");
    paused = true;
    await eventually(
      async () => {
        const l = await liveness();
        return l.a === "unknown" && l.b === "unknown";
      },
      20_000,
      "liveness unknown while the store cannot be read",
    );
    const listed = await list();
    assert.equal(listed.find((e) => e.id === "gone")?.liveness, "stale", "stale only on evidence");
    const since = Date.parse(listed.find((e) => e.id === "a")!.unknownSince!);
    assert.ok(since <= Date.now() && since >= beforeOutage - 10_000, `unknown since ${since}`);

    const table = await run(["executor", "list"]);
    const rows = tableRows(table.stdout);
    const alive = rows[0]!.indexOf("ALIVE");
    assert.deepEqual(rows.slice(1).map((r) => [r[0], r[alive]]), [
      ["a", "unknown"],
      ["b", "unknown"],
      ["gone", "no"],
    ]);

    const metrics = await fetch(`${http}/metrics`).then((r) => r.text());
    assert.match(metrics, /^sm_store_up 0$/m);
    assert.match(metrics, /^sm_executors\{namespace="ns",state="unknown"\} 2$/m);
    assert.match(metrics, /^sm_executors\{namespace="ns",state="stale"\} 1$/m);

    const state = await fetch(`${http}/api/namespaces/ns`).then((r) => r.json());
    assert.equal(state.summary.unknown, 2);
    assert.deepEqual(
      state.executors.map((e: { liveness: string }) => e.liveness),
      ["unknown", "unknown", "stale"],
    );
    await eventually(
      async () =>
        (await fetch(`${http}/api/namespaces/ns`).then((r) => r.json())).leader.unknownSinceMs > 0,
      10_000,
      "the leader card says unknown since",
    );
    const leaders = await run(["leader", "list"]);
    assert.equal(leaders.code, 0, leaders.stderr);
    assert.match(leaders.stdout, /unknown since/);

    await member.kill("SIGCONT");
    paused = false;
    await eventually(
      async () => {
        const l = await liveness();
        return l.a === "alive" && l.b === "alive";
      },
      20_000,
      "alive again once the store answers",
    );
    assert.match(await fetch(`${http}/metrics`).then((r) => r.text()), /^sm_store_up 1$/m);
  } finally {
    if (paused) await member.kill("SIGCONT");
    await Promise.all(executors.map((e) => e.stop()));
    clients.close();
    await instance.stop();
  }
});
