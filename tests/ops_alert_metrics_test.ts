/**
 * Issue 37, "alerts that fire in time": the gauges the alert rules read, on a live instance with
 * real etcd. `sm_store_unreachable_seconds` counts a paused etcd's silence from its last answer
 * (so a rule can page at 10 s whatever the scrape interval), `sm_heartbeat_ttl_seconds` is the
 * configured TTL, `sm_executor_drain_oldest_seconds` dates the oldest drain, and
 * `sm_shard_moves_total` has a 0 series for every reason before the first move of that reason, so
 * `increase()` sees a leader's first loss moves.
 */
import assert from "node:assert/strict";
import { startEtcdCluster, uniquePrefix } from "./support/etcd.ts";
import { call, connect } from "./support/grpc_clients.ts";
import { eventually, runExecutors } from "./support/executors.ts";
import { startInProcess, testConfigYaml } from "./support/service.ts";

/** The value of one sample line of a Prometheus text page, undefined when absent. */
function sample(page: string, series: string): number | undefined {
  const line = page.split("\n").find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

Deno.test("the gauges alerts read: store silence, heartbeat TTL, drain age, loss moves from 0", async () => {
  await using etcd = await startEtcdCluster(1);
  const instance = await startInProcess(testConfigYaml({
    endpoints: etcd.endpoints,
    prefix: uniquePrefix("ops-alert-metrics"),
    namespaces: [{ name: "ns", type: "fixed", shardNum: 6 }],
    process: { heartbeatTTL: "2s" },
    electionTTL: "30s",
  }));
  const clients = connect(instance.server.address);
  const executors = runExecutors(clients, "ns", ["a", "b", "c"], { intervalMs: 200 });
  const page = () => fetch(`http://${instance.http.address}/metrics`).then((r) => r.text());
  const member = etcd.members[0]!;
  let paused = false;
  try {
    await eventually(() => executors.every((e) => e.shards.length === 2), 15_000, "shards placed");
    let text = await page();
    assert.equal(sample(text, "sm_store_unreachable_seconds"), 0);
    assert.equal(sample(text, 'sm_heartbeat_ttl_seconds{namespace="ns"}'), 2);
    assert.equal(sample(text, 'sm_executor_drain_oldest_seconds{namespace="ns"}'), 0);
    assert.equal(sample(text, 'sm_shard_moves_total{namespace="ns",reason="loss"}'), 0);
    assert.equal(sample(text, 'sm_shard_moves_total{namespace="ns",reason="drain"}'), 0);

    // An executor lost: its shards move for reason "loss", counted on the series that was 0.
    await executors[2]!.stop();
    await eventually(
      async () => sample(await page(), 'sm_shard_moves_total{namespace="ns",reason="loss"}') === 2,
      15_000,
      "two loss moves counted",
    );

    // A drain is dated from its creation.
    const drainedAt = Date.now();
    await call(clients.api, "drainExecutors", { namespace: "ns", executorId: "b", force: true });
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    text = await page();
    const age = sample(text, 'sm_executor_drain_oldest_seconds{namespace="ns"}')!;
    assert.ok(age >= 1.4 && age <= (Date.now() - drainedAt) / 1000 + 0.1, `drain age ${age}`);

    // etcd paused: unreachable within about a second, counted from the store's last answer.
    const pausedAt = performance.now();
    await member.kill("SIGSTOP");
    paused = true;
    let turned = 0;
    await eventually(
      async () => {
        const t = await page();
        turned = performance.now() - pausedAt;
        return sample(t, "sm_store_up") === 0 &&
          (sample(t, "sm_store_unreachable_seconds") ?? 0) > 0;
      },
      5_000,
      "the store unreachable",
    );
    assert.ok(turned < 2_000, `unreachable after ${turned} ms`);
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    const silent = sample(await page(), "sm_store_unreachable_seconds")!;
    const elapsed = (performance.now() - pausedAt) / 1000;
    assert.ok(silent >= elapsed - 0.5 && silent <= elapsed + 0.5, `${silent} s of ${elapsed} s`);

    await member.kill("SIGCONT");
    paused = false;
    await eventually(
      async () => sample(await page(), "sm_store_unreachable_seconds") === 0,
      10_000,
      "0 again once the store answers",
    );
  } finally {
    if (paused) await member.kill("SIGCONT");
    await Promise.all(executors.map((e) => e.stop()));
    clients.close();
    await instance.stop();
  }
});
