import assert from "node:assert/strict";
import { startEtcd, uniquePrefix } from "./support/etcd.ts";
import { call, codeOf, connect, watch } from "./support/grpc_clients.ts";
import { eventually, runExecutors } from "./support/executors.ts";
import { startInProcess, testConfigYaml } from "./support/service.ts";

/** The `# TYPE` of every metric family in a Prometheus text page. */
function types(text: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const m of text.matchAll(/^# TYPE (\S+) (\S+)$/gm)) out.set(m[1]!, m[2]!);
  return out;
}

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
    assert.ok((m.get("sm_process_cpu_seconds_total") ?? 0) > 0);
    assert.ok((m.get('sm_process_heap_bytes{state="used"}') ?? 0) > 0);
    assert.equal(m.get('sm_shards{namespace="ns"}'), 6);
    assert.equal(m.get('sm_shards_unowned{namespace="ns"}'), 0);
    assert.ok(
      [...m].some(([k, v]) => k.startsWith('sm_build_info{version="0.') && v === 1),
      "sm_build_info names the version",
    );
    assert.ok((m.get('sm_store_probes_total{result="ok"}') ?? 0) >= 1);
    assert.ok((m.get("sm_store_round_trip_seconds_count") ?? 0) >= 1, "store round trips");
  } finally {
    for (const e of executors) e.stop();
    clients.close();
    await instance.stop();
  }
});

Deno.test("metrics count unowned shards, watch streams and operator calls; Prometheus naming", async () => {
  await using etcd = await startEtcd();
  const instance = await startInProcess(testConfigYaml({
    endpoints: etcd.endpoints,
    prefix: uniquePrefix("ops-metrics-2"),
    namespaces: [{ name: "ns", type: "fixed", shardNum: 4 }],
  }));
  const clients = connect(instance.server.address);
  const page = async () => await (await fetch(`http://${instance.http.address}/metrics`)).text();
  const scrape = async () => parse(await page());
  const streams = [watch(clients, "ns"), watch(clients, "ns", { acceptDeltas: true })];
  try {
    // No executor yet: every shard is unowned.
    await eventually(
      async () => (await scrape()).get('sm_shards_unowned{namespace="ns"}') === 4,
      10_000,
      "four unowned shards",
    );
    await Promise.all(streams.map((s) => s.messages.length > 0 ? undefined : s.next()));
    let m = await scrape();
    assert.equal(m.get('sm_watch_streams{namespace="ns"}'), 2);
    assert.equal(m.get('sm_watch_subscribers{namespace="ns"}'), 2);
    streams[0]!.cancel();
    await eventually(
      async () => (await scrape()).get('sm_watch_streams{namespace="ns"}') === 1,
      5_000,
      "a cancelled stream is no longer counted",
    );
    assert.equal((await scrape()).get('sm_watch_subscribers{namespace="ns"}'), 1);

    await call(clients.api, "drainShards", { namespace: "ns", shardKeys: ["1"] });
    assert.equal(
      await codeOf(call(clients.api, "drainShards", { namespace: "ns", shardKeys: ["99"] })),
      5,
    );
    m = await scrape();
    assert.equal(m.get('sm_operator_calls_total{method="DrainShards",result="OK"}'), 1);
    assert.equal(m.get('sm_operator_calls_total{method="DrainShards",result="NOT_FOUND"}'), 1);
    await eventually(
      async () => (await scrape()).get('sm_shards_unowned{namespace="ns"}') === 3,
      5_000,
      "a drained shard no longer counted as unowned",
    );

    const text = await page();
    for (const [name, type] of types(text)) {
      assert.match(name, /^sm_[a-z0-9_]+$/, `${name}: sm_ prefix, snake case`);
      if (type === "gauge") assert.doesNotMatch(name, /_total$/, `${name}: a gauge without _total`);
      if (type === "counter") assert.match(name, /_total$/, `${name}: a counter ends in _total`);
    }
    assert.doesNotMatch(text, /nodejs|eventloop|active_handles/, "no Node.js default metrics");
  } finally {
    for (const s of streams) s.cancel();
    clients.close();
    await instance.stop();
  }
});
