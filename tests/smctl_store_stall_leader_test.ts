/**
 * Issue 37: `smctl leader list` answers within about a second while etcd is
 * paused (SIGSTOP), from the instance's own view, with its age: "As of N s
 * ago ...; store unreachable". Before, the instance waited on the leader
 * store and smctl printed `no answer ... within` its timeout. `namespace get`
 * answers from the instance's followed copy, and `namespace events` says at
 * once that the store is unreachable.
 */
import assert from "node:assert/strict";
import { startEtcdCluster, uniquePrefix } from "./support/etcd.ts";
import { connect } from "./support/grpc_clients.ts";
import { eventually, runExecutors } from "./support/executors.ts";
import { startInProcess, testConfigYaml } from "./support/service.ts";
import { json, smctl } from "./support/smctl.ts";

Deno.test("smctl leader list answers within a second from the instance's view while etcd is paused", async () => {
  await using etcd = await startEtcdCluster(1);
  const instance = await startInProcess(testConfigYaml({
    endpoints: etcd.endpoints,
    prefix: uniquePrefix("smctl-stall-leader"),
    namespaces: [{ name: "ns", type: "fixed", shardNum: 4 }],
    process: { heartbeatTTL: "2s" },
    electionTTL: "30s",
  }));
  const clients = connect(instance.server.address);
  const executors = runExecutors(clients, "ns", ["a"], { intervalMs: 200 });
  const run = (args: string[]) =>
    smctl(["--address", instance.server.address, "--timeout", "5s", ...args]);
  const timed = async (args: string[]) => {
    const started = performance.now();
    const result = await run(args);
    return { ...result, ms: performance.now() - started };
  };
  const member = etcd.members[0]!;
  let paused = false;
  try {
    await eventually(() => executors[0]!.shards.length === 4, 15_000, "shards placed");
    await eventually(
      async () => /instance-|\bterm\b/i.test((await run(["leader", "list"])).stdout),
      15_000,
      "a leader",
    );
    // The run's own cost (starting deno), measured with the store answering.
    const baseline = await timed(["leader", "list"]);
    assert.equal(baseline.code, 0, baseline.stderr);
    assert.doesNotMatch(baseline.stdout, /store unreachable/);

    await member.kill("SIGSTOP");
    paused = true;
    // At once: the instance does not call the store unreachable yet (1 s of silence).
    const early = await timed(["leader", "list"]);
    assert.equal(early.code, 0, early.stderr);
    assert.ok(
      early.ms < baseline.ms + 1_000,
      `answered in ${early.ms.toFixed(0)} ms (baseline ${baseline.ms.toFixed(0)} ms)`,
    );
    assert.match(
      early.stdout,
      /^As of \d+\.\d s ago \(.+\), the instance's last good read; store unreachable\.$/m,
    );
    assert.match(early.stdout, /unknown since/);

    await new Promise((resolve) => setTimeout(resolve, 2_000));
    const later = await timed(["leader", "list", "--json"]);
    assert.equal(later.code, 0, later.stderr);
    assert.ok(later.ms < baseline.ms + 1_000, `answered in ${later.ms.toFixed(0)} ms`);
    const leaders =
      json<{ leaders: { namespace: string; instanceId: string; unknownSince: string }[] }>(later)
        .leaders;
    assert.equal(leaders[0]?.namespace, "ns");
    assert.ok(leaders[0]?.instanceId, "the leader at the last good read");
    assert.ok(Date.now() - Date.parse(leaders[0]!.unknownSince) >= 2_000, "the view's age shows");

    // The other reads do not hang either: the definition comes from the followed copy, and
    // the history (kept only in the store) is refused at once, in plain words.
    const definition = await timed(["namespace", "get", "ns", "-o", "yaml"]);
    assert.equal(definition.code, 0, definition.stderr);
    assert.ok(definition.ms < baseline.ms + 2_000, `answered in ${definition.ms.toFixed(0)} ms`);
    assert.match(definition.stdout, /shardNum: 4/);
    const events = await timed(["-n", "ns", "namespace", "events"]);
    assert.notEqual(events.code, 0);
    assert.ok(events.ms < baseline.ms + 1_000, `answered in ${events.ms.toFixed(0)} ms`);
    assert.match(events.stderr, /store unreachable since .*: the history is kept in the store/i);
    assert.doesNotMatch(events.stderr, /circuit breaker/);

    await member.kill("SIGCONT");
    paused = false;
    await eventually(
      async () => !/store unreachable/.test((await run(["leader", "list"])).stdout),
      20_000,
      "a current answer once the store answers",
    );
  } finally {
    if (paused) await member.kill("SIGCONT");
    await Promise.all(executors.map((e) => e.stop()));
    clients.close();
    await instance.stop();
  }
});
