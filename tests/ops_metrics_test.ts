import assert from "node:assert/strict";
import { startEtcd, uniquePrefix } from "./support/etcd.ts";
import { call, codeOf, connect } from "./support/grpc_clients.ts";
import { eventually, runExecutors } from "./support/executors.ts";
import { startInProcess, testConfigYaml } from "./support/service.ts";

/** Parses the Prometheus text format into `name{labels}` → value. */
function parse(text: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const line of text.split("\n")) {
    if (line === "" || line.startsWith("#")) continue;
    const at = line.lastIndexOf(" ");
    out.set(line.slice(0, at), Number(line.slice(at + 1)));
  }
  return out;
}

Deno.test("metrics expose RPCs, passes, namespace gauges and latencies", async () => {
  await using etcd = await startEtcd();
  const instance = await startInProcess(testConfigYaml({
    endpoints: etcd.endpoints,
    prefix: uniquePrefix("ops-metrics"),
    namespaces: [{ name: "ns", type: "fixed", shardNum: 6 }],
  }));
  const clients = connect(instance.server.address);
  const executors = runExecutors(clients, "ns", ["a", "b"], { intervalMs: 200 });
  const scrape = async () => {
    const res = await fetch(`http://${instance.http.address}/metrics`);
    assert.match(res.headers.get("content-type") ?? "", /text\/plain/);
    return parse(await res.text());
  };
  try {
    await eventually(() => executors.every((e) => e.shards.length === 3), 10_000, "a partition");
    assert.equal(
      await codeOf(call(clients.api, "getShardOwner", { namespace: "nope", shardKey: "1" })),
      5,
    );
    await eventually(
      async () => {
        const m = await scrape();
        return (m.get('sm_shard_handover_seconds_count{namespace="ns"}') ?? 0) >= 6 &&
          m.get('sm_executor_load_max{namespace="ns"}') === 3;
      },
      10_000,
      "handovers measured and loads reported (three shards of load 1 each)",
    );
    const m = await scrape();
    assert.equal(m.get('sm_namespace_leader{namespace="ns"}'), 1);
    assert.equal(m.get('sm_shards_owned{namespace="ns"}'), 6);
    assert.equal(m.get('sm_executors{namespace="ns",state="active"}'), 2);
    assert.equal(m.get('sm_executors{namespace="ns",state="stale"}'), 0);
    assert.equal(m.get("sm_store_reachable"), 1);
    assert.ok((m.get('sm_grpc_requests_total{method="Heartbeat",code="OK"}') ?? 0) > 0);
    assert.equal(m.get('sm_grpc_requests_total{method="GetShardOwner",code="NOT_FOUND"}'), 1);
    assert.ok((m.get('sm_rebalance_passes_total{namespace="ns",changed="true"}') ?? 0) >= 1);
    assert.ok((m.get('sm_assignment_propagation_seconds_count{namespace="ns"}') ?? 0) >= 1);
    assert.equal(m.get('sm_shard_moves_total{namespace="ns",reason="placement"}'), 6);
    assert.ok((m.get('sm_heartbeat_lag_max_seconds{namespace="ns"}') ?? 99) < 2);
    assert.ok((m.get("sm_process_resident_memory_bytes") ?? 0) > 0, "process metrics");
  } finally {
    for (const e of executors) e.stop();
    clients.close();
    await instance.stop();
  }
});
