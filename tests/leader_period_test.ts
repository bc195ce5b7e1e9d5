import assert from "node:assert/strict";
import { startEtcd, uniquePrefix } from "./support/etcd.ts";
import { connect } from "./support/grpc_clients.ts";
import { eventually, runExecutors } from "./support/executors.ts";
import { startProcess, testConfigYaml } from "./support/service.ts";

/** Planned passes of namespace "ns", from the instance's metrics. */
async function passes(httpAddress: string): Promise<number> {
  const text = await (await fetch(`http://${httpAddress}/metrics`)).text();
  let n = 0;
  for (const m of text.matchAll(/^sm_rebalance_passes_total\{namespace="ns",[^}]*\} (\S+)$/gm)) {
    n += Number(m[1]);
  }
  return n;
}

/** The pass count once it has not moved for `quietMs` (throws after `timeoutMs`). */
async function settledPasses(httpAddress: string, quietMs: number, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  let last = await passes(httpAddress);
  let since = Date.now();
  while (Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    const now = await passes(httpAddress);
    if (now !== last) [last, since] = [now, Date.now()];
    else if (Date.now() - since >= quietMs) return now;
  }
  throw new Error(`passes did not settle for ${quietMs} ms within ${timeoutMs} ms`);
}

const terms = (logs: string) => logs.match(/"msg":"leading namespace"/g)?.length ?? 0;

Deno.test("terms re-won at the end of a leader period plan nothing when nothing changed", async () => {
  await using etcd = await startEtcd();
  await using instance = await startProcess(
    testConfigYaml({
      endpoints: etcd.endpoints,
      prefix: uniquePrefix("leader-period"),
      namespaces: [{ name: "ns", type: "fixed", shardNum: 6 }],
      election: { leaderPeriod: "1500ms", maxRandomDelay: "100ms" },
    }),
    "instance-1",
  );
  const executors = runExecutors(connect(instance.address), "ns", ["a", "b"], { intervalMs: 200 });
  try {
    await eventually(() => executors.every((e) => e.shards.length === 3), 10_000, "a partition");
    // Settled: no pass for longer than the settle window (3 s by default: the pass at its
    // end, 3 s after the last executor became active, is a planned wake, not a change), and
    // the executors' reports of their new shards caused theirs; then three more terms.
    const before = await settledPasses(instance.httpAddress, 4_000, 25_000);
    const termsBefore = terms(instance.logs());
    await eventually(() => terms(instance.logs()) >= termsBefore + 3, 15_000, "three more terms");
    // Without the gate kept across terms each re-won term plans a pass (3 or more here).
    const planned = await passes(instance.httpAddress) - before;
    const recent = instance.logs().split("\n").filter((l) => !l.includes("heartbeat")).slice(-30);
    assert.equal(
      planned,
      0,
      `${planned} passes planned by 3 re-won terms; log:\n${recent.join("\n")}`,
    );
    assert.match(
      instance.logs(),
      /"msg":"stopped leading namespace".*"reason":"leader period over"/,
    );
    // And a change is still planned in a re-won term: an executor leaves.
    await executors[1]!.stop();
    await eventually(() => executors[0]!.shards.length === 6, 15_000, "a's shards after b left");
  } finally {
    await Promise.all(executors.map((e) => e.stop()));
  }
});
