/**
 * Issue 16, case 4: history. An executor that dies vanishes from the
 * dashboard, but the namespace's event log in the store keeps that it was
 * lost, that its shards moved (with the count per reason), the leader, and
 * the operator's drains; `smctl namespace events` shows them, also from
 * another instance and with `--since` and `--follow`.
 */
import assert from "node:assert/strict";
import { startEtcd, uniquePrefix } from "./support/etcd.ts";
import { connect } from "./support/grpc_clients.ts";
import { eventually, runExecutors } from "./support/executors.ts";
import { startInProcess, testConfigYaml } from "./support/service.ts";
import { json, smctl, spawnSmctl } from "./support/smctl.ts";

interface Events {
  events: {
    type: string;
    executorId: string | null;
    movesByReason: Record<string, number>;
    text: string;
  }[];
}

Deno.test("case 4: a lost executor, its moves, the leader and drains are in the namespace history", async () => {
  await using etcd = await startEtcd();
  const yaml = testConfigYaml({
    endpoints: etcd.endpoints,
    prefix: uniquePrefix("ops-case4"),
    namespaces: [{ name: "ns", type: "fixed", shardNum: 12 }],
  });
  const instance = await startInProcess(yaml, "sm-1");
  const clients = connect(instance.server.address);
  const executors = runExecutors(clients, "ns", ["a", "b", "c"], { intervalMs: 200 });
  const run = (args: string[], address = instance.server.address) =>
    smctl(["--address", address, "-n", "ns", ...args]);
  const history = async (address?: string) =>
    json<Events>(await run(["namespace", "events", "--json"], address)).events;
  let other;
  try {
    await eventually(() => executors.every((e) => e.shards.length === 4), 15_000, "balanced");
    const held = executors[2]!.shards.length;
    await executors[2]!.stop(); // as if SIGKILLed: no more heartbeats
    await eventually(
      () => executors[0]!.shards.length + executors[1]!.shards.length === 12,
      15_000,
      "c's shards moved",
    );
    await eventually(
      async () => {
        const events = await history();
        return events.some((e) => e.type === "executor_lost" && e.executorId === "c") &&
          events.some((e) => e.type === "assignment_changed" && e.movesByReason.stale === held);
      },
      10_000,
      "the loss and its moves recorded",
    );
    const events = await history();
    assert.ok(events.some((e) => e.type === "leader_changed"), "the leader is recorded");
    const moved = events.find((e) => e.type === "assignment_changed" && e.movesByReason.stale)!;
    assert.match(moved.text, new RegExp(`${held} shards moved \\(stale ${held}\\)`));

    assert.equal((await run(["executor", "drain", "a", "--reason", "INC-7"])).code, 0);
    assert.equal((await run(["shard", "drain", "5"])).code, 0);
    await eventually(
      async () => {
        const types = (await history()).map((e) => e.type);
        return types.includes("executor_drained") && types.includes("shards_drained");
      },
      10_000,
      "drains recorded",
    );

    // The history is in the store: another instance reads the same.
    other = await startInProcess(yaml, "sm-2");
    const fromOther = await history(other.server.address);
    assert.ok(fromOther.some((e) => e.type === "executor_lost" && e.executorId === "c"));

    const table = await run(["namespace", "events", "--since", "10m"]);
    assert.equal(table.code, 0, table.stderr);
    assert.match(table.stdout, /executor_lost +executor c lost/);
    assert.match(table.stdout, /executor_drained +drain id:a made \(INC-7\)/);
    const none = await run(["namespace", "events", "--since", "1ms"]);
    assert.equal(none.stdout, 'No events in namespace "ns".\n');

    const follow = spawnSmctl([
      "--address",
      instance.server.address,
      "-n",
      "ns",
      "namespace",
      "events",
      "--follow",
    ]);
    try {
      await follow.waitFor((o) => o.stdout.includes("executor_drained"), 10_000, "history so far");
      assert.equal((await run(["executor", "undrain", "a"])).code, 0);
      await follow.waitFor((o) => o.stdout.includes("executor_undrained"), 10_000, "a new event");
    } finally {
      follow.kill("SIGINT");
      await follow.finished;
    }
  } finally {
    await Promise.all(executors.map((e) => e.stop()));
    clients.close();
    await other?.stop();
    await instance.stop();
  }
});
