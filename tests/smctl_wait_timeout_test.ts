import assert from "node:assert/strict";
import { startEtcd, uniquePrefix } from "./support/etcd.ts";
import { connect } from "./support/grpc_clients.ts";
import { eventually, runExecutors } from "./support/executors.ts";
import { startInProcess, startProcess, testConfigYaml } from "./support/service.ts";
import { json, smctl, spawnSmctl, tableRows } from "./support/smctl.ts";

/** The pid of the service process started with `--instance-id id` (Linux /proc). */
async function pidOf(instanceId: string): Promise<number> {
  for await (const entry of Deno.readDir("/proc")) {
    if (!/^\d+$/.test(entry.name)) continue;
    const cmdline = await Deno.readTextFile(`/proc/${entry.name}/cmdline`).catch(() => "");
    if (cmdline.split("\0").join(" ").includes(`--instance-id ${instanceId}`)) {
      return Number(entry.name);
    }
  }
  throw new Error(`No process with --instance-id ${instanceId}`);
}

Deno.test("executor drain --wait exits 6 on timeout and 130 on Ctrl-C while shards cannot move, and 0 once they do", async () => {
  await using etcd = await startEtcd();
  const yaml = testConfigYaml({
    endpoints: etcd.endpoints,
    prefix: uniquePrefix("smctl-wait-timeout"),
    namespaces: [{ name: "ns", type: "fixed", shardNum: 6 }],
    // A frozen leader keeps its lease this long: nobody rebalances meanwhile.
    electionTTL: "20s",
  });
  const leaderId = `leader-${crypto.randomUUID().slice(0, 8)}`;
  await using leader = await startProcess(yaml, leaderId);
  await eventually(
    () => /"msg":"leading namespace","namespace":"ns"/.test(leader.logs()),
    15_000,
    "the process instance to lead ns",
  );
  const follower = await startInProcess(yaml, "follower");
  const clients = connect(follower.server.address);
  const executors = runExecutors(clients, "ns", ["a", "b"], { intervalMs: 200 });
  const [a] = executors;
  const pid = await pidOf(leaderId);
  try {
    await eventually(() => executors.every((e) => e.shards.length === 3), 15_000, "3 shards each");
    const address = follower.server.address;
    const leaders = await smctl(["--address", address, "leader", "list"]);
    assert.deepEqual(tableRows(leaders.stdout)[1]?.slice(0, 2), ["ns", leaderId]);

    Deno.kill(pid, "SIGSTOP");
    const drain = ["--address", address, "-n", "ns", "executor", "drain", "a", "--wait"];
    const table = await smctl([...drain, "--wait-timeout", "1500ms"]);
    assert.equal(table.code, 6, table.stderr);
    assert.match(table.stdout, /^a: 3 of 3 shards still held \(a: 3\) after 1\.\ds\.$/m);
    assert.match(
      table.stderr,
      /^smctl: timed out after 1\.5s: 3 of 3 shards are still on a; the drain stays in place$/m,
    );
    const machine = await smctl([...drain, "--wait-timeout", "1s", "--json"]);
    assert.equal(machine.code, 6, machine.stderr);
    const doc = json<{ wait: Record<string, unknown> }>(machine);
    assert.equal(doc.wait.completed, false);
    assert.equal(doc.wait.remainingShards, 3);
    assert.deepEqual(doc.wait.remaining, { a: 3 });

    // Ctrl-C while waiting: exit 130, and the message says how to undo the drain.
    const interrupted = spawnSmctl([...drain, "--wait-timeout", "60s"]);
    await interrupted.waitFor(
      ({ stderr }) => stderr.includes("0/3 shards moved off (0%)"),
      10_000,
      "the first progress line",
    );
    interrupted.kill("SIGINT");
    const stopped = await interrupted.finished;
    assert.equal(stopped.code, 130, stopped.stderr);
    assert.match(
      stopped.stderr,
      /^smctl: interrupted while waiting; the drain stays in place; undo with: smctl -n ns executor undrain a$/m,
    );

    Deno.kill(pid, "SIGCONT");
    const done = await smctl([...drain, "--wait-timeout", "60s"]);
    assert.equal(done.code, 0, done.stderr);
    assert.match(done.stderr, /shards moved off \(100%\)\n$/, "maybe moved before smctl looked");
    await eventually(() => a!.shards.length === 0, 10_000, "a to be empty");
  } finally {
    try {
      Deno.kill(pid, "SIGCONT");
    } catch { /* gone */ }
    for (const e of executors) e.stop();
    clients.close();
    await follower.stop();
  }
});
