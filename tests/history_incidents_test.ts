/**
 * Issue 37, "history that tells the whole story": after an incident the
 * namespace history alone says what happened. A store stall (etcd paused)
 * leaves `store_unreachable` and `store_recovered`, dated when they happened;
 * namespaces created, updated and deleted are recorded with who did it, a
 * deleted namespace's history stays readable, and refused operator calls are
 * recorded with the caller and the reason. A killed leader is told apart from
 * a handover, and routine rotations are summarised, not one event each.
 */
import assert from "node:assert/strict";
import { startEtcd, startEtcdCluster, uniquePrefix } from "./support/etcd.ts";
import { call, connect } from "./support/grpc_clients.ts";
import { eventually, runExecutors } from "./support/executors.ts";
import { startInProcess, startProcess, testConfigYaml } from "./support/service.ts";
import { smctl } from "./support/smctl.ts";

interface Event {
  type: string;
  text: string;
  reason: string;
  actor: string;
  method: string;
  changes: string[];
  durationMs: string;
  at: { seconds: string };
}

async function events(address: string, namespace: string): Promise<Event[]> {
  const clients = connect(address);
  try {
    const answer = await call<unknown, { events: Event[] }>(
      clients.api,
      "listNamespaceEvents",
      { namespace },
    );
    return answer.events;
  } finally {
    clients.close();
  }
}

const ORDERS = "name: orders\ntype: fixed\nshardNum: 4\n";

Deno.test("history: a store stall, namespaces created, changed and deleted, refused calls, each with who", async () => {
  await using etcd = await startEtcdCluster(1);
  const yaml = testConfigYaml({
    endpoints: etcd.endpoints,
    prefix: uniquePrefix("history incidents"),
    namespaces: [{ name: "ns", type: "fixed", shardNum: 6 }],
  });
  const instance = await startInProcess(yaml, "hist-1");
  const address = instance.server.address;
  const clients = connect(address);
  const executors = runExecutors(clients, "ns", ["a", "b"], { intervalMs: 300 });
  const dir = await Deno.makeTempDir();
  const sm = (...args: string[]) => smctl(["--address", address, ...args]);
  try {
    await eventually(() => executors.every((e) => e.shards.length === 3), 20_000, "balanced");

    // A 3 s stall: told once the store answers again, dated when it happened.
    const pausedAt = Date.now();
    await etcd.members[0]!.kill("SIGSTOP");
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    await etcd.members[0]!.kill("SIGCONT");
    await eventually(
      async () =>
        // Until the instance hears the store again, the history read is refused (UNAVAILABLE).
        (await events(address, "ns").catch(() => [])).some((e) => e.type === "store_recovered"),
      15_000,
      "the stall recorded",
    );
    const all = await events(address, "ns");
    const down = all.find((e) => e.type === "store_unreachable")!;
    const up = all.find((e) => e.type === "store_recovered")!;
    assert.ok(Number(down.durationMs) >= 2_000, `lasted ${down.durationMs} ms`);
    assert.match(down.text, /store unreachable for \d+\.\d s .*rebalancing paused/);
    assert.ok(
      Math.abs(Number(down.at.seconds) * 1000 - pausedAt) < 1_500,
      "dated at the store's last answer",
    );
    assert.ok(Number(up.at.seconds) * 1000 >= pausedAt + 2_000, "dated at its first answer after");
    assert.ok(!all.some((e) => e.type === "executor_lost"), "nobody blamed");

    // Created, updated (with the changed fields) and refused, each naming the caller.
    await Deno.writeTextFile(`${dir}/orders.yaml`, ORDERS);
    assert.equal((await sm("namespace", "create", "-f", `${dir}/orders.yaml`)).code, 0);
    await Deno.writeTextFile(`${dir}/six.yaml`, ORDERS.replace("shardNum: 4", "shardNum: 6"));
    assert.equal((await sm("namespace", "update", "-f", `${dir}/six.yaml`, "--force")).code, 0);
    await Deno.writeTextFile(`${dir}/x.yaml`, ORDERS + "ownership: exclusive\n");
    assert.notEqual((await sm("namespace", "update", "-f", `${dir}/x.yaml`, "--force")).code, 0);
    const drained = await sm("-n", "ns", "executor", "drain", "a", "--reason", "INC-9");
    assert.equal(drained.code, 0, drained.stderr);
    await eventually(
      async () => {
        const types = (await events(address, "orders")).map((e) => e.type);
        return types.includes("namespace_updated") && types.includes("operator_refused");
      },
      10_000,
      "orders' changes recorded",
    );
    const orders = await events(address, "orders");
    const created = orders.find((e) => e.type === "namespace_created")!;
    assert.match(created.actor, /^anonymous \(.*127\.0\.0\.1/, "the caller without security");
    const updated = orders.find((e) => e.type === "namespace_updated")!;
    assert.deepEqual(updated.changes.length, 1);
    assert.match(updated.changes[0]!, /shardNum.*4.*6/);
    const refused = orders.find((e) => e.type === "operator_refused")!;
    assert.equal(refused.method, "UpdateNamespace");
    assert.match(refused.reason, /cannot switch ownership/);
    assert.match(refused.actor, /^anonymous/);
    await eventually(
      async () => (await events(address, "ns")).some((e) => e.type === "executor_drained"),
      10_000,
      "the drain recorded",
    );
    const drain = (await events(address, "ns")).find((e) => e.type === "executor_drained")!;
    assert.match(drain.actor, /^anonymous/, "drains name their caller too");

    // Deleted: the history is still readable, and says so.
    const deleted = await sm("namespace", "delete", "orders", "--yes");
    assert.equal(deleted.code, 0, deleted.stderr);
    await eventually(
      async () => (await events(address, "orders")).some((e) => e.type === "namespace_deleted"),
      10_000,
      "the delete recorded",
    );
    const table = await sm("-n", "orders", "namespace", "events");
    assert.equal(table.code, 0, table.stderr);
    assert.match(table.stdout, /namespace_created .*\(by anonymous/);
    assert.match(table.stdout, /namespace_deleted/);
    const never = await sm("-n", "never-was", "namespace", "events");
    assert.notEqual(never.code, 0, "a namespace that never existed is still not found");
  } finally {
    await Promise.all(executors.map((e) => e.stop()));
    clients.close();
    await instance.stop();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("history: a killed leader is told apart from a handover; routine rotations are summarised", async () => {
  await using etcd = await startEtcd();
  const namespaces = [{ name: "ns", type: "fixed", shardNum: 4 }];
  const prefix = uniquePrefix("history leaders");
  const yaml = testConfigYaml({ endpoints: etcd.endpoints, prefix, namespaces });
  const first = await startProcess(yaml, "lead-1");
  const second = await startProcess(yaml, "lead-2");
  const third = await startProcess(yaml, "lead-3");
  const all = [first, second, third];
  const leaderOf = async (address: string) => {
    const clients = connect(address);
    try {
      const answer = await call<unknown, { leaders: { namespace: string; instanceId: string }[] }>(
        clients.api,
        "listLeaders",
        {},
      );
      return answer.leaders.find((l) => l.namespace === "ns")?.instanceId;
    } finally {
      clients.close();
    }
  };
  try {
    let leader: string | undefined;
    await eventually(
      async () => (leader = await leaderOf(first.address)) !== undefined,
      15_000,
      "a leader",
    );
    // A graceful stop hands over: the next leader says so, with the reason.
    const graceful = all.find((p) => p.instanceId === leader)!;
    await graceful.kill("SIGTERM");
    const rest = all.filter((p) => p !== graceful);
    let next: string | undefined;
    await eventually(
      async () => (next = await leaderOf(rest[0]!.address)) !== undefined && next !== leader,
      15_000,
      "a new leader after the stop",
    );
    await eventually(
      async () =>
        (await events(rest[0]!.address, "ns")).some((e) =>
          e.type === "leader_changed" && e.reason === "handed_over"
        ),
      10_000,
      "the handover recorded",
    );
    const handover = (await events(rest[0]!.address, "ns")).find((e) =>
      e.type === "leader_changed" && e.reason === "handed_over"
    )!;
    assert.match(handover.text, /handed over \(.*shutting down.*\)/i);
    // A SIGKILL cannot hand over: the next leader says the lease ran out.
    const killed = rest.find((p) => p.instanceId === next)!;
    await killed.kill("SIGKILL");
    const survivor = rest.find((p) => p !== killed)!;
    await eventually(
      async () =>
        (await events(survivor.address, "ns")).some((e) =>
          e.type === "leader_changed" && e.reason === "not_handed_over"
        ),
      20_000,
      "the takeover after the kill recorded",
    );
    const takeover = (await events(survivor.address, "ns")).find((e) =>
      e.reason === "not_handed_over"
    )!;
    assert.match(takeover.text, /did not hand over; its election lease ran out/);
  } finally {
    await Promise.all(all.map((p) => p.exited() ? undefined : p.kill("SIGKILL")));
  }
});

Deno.test("history: routine rotations every leaderPeriod are one note per instance, not one event each", async () => {
  await using etcd = await startEtcd();
  const yaml = testConfigYaml({
    endpoints: etcd.endpoints,
    prefix: uniquePrefix("history rotations"),
    namespaces: [{ name: "ns", type: "fixed", shardNum: 2 }],
    election: { leaderPeriod: "1s" },
  });
  const a = await startInProcess(yaml, "rot-a");
  const b = await startInProcess(yaml, "rot-b");
  try {
    let term = 0;
    await eventually(
      async () => {
        const clients = connect(a.server.address);
        try {
          const answer = await call<unknown, { leaders: { namespace: string; term: string }[] }>(
            clients.api,
            "listLeaders",
            {},
          );
          term = Number(answer.leaders.find((l) => l.namespace === "ns")?.term ?? 0);
        } finally {
          clients.close();
        }
        return term >= 6;
      },
      30_000,
      "several rotations",
    );
    await new Promise((resolve) => setTimeout(resolve, 500));
    const history = await events(a.server.address, "ns");
    const leadership = history.filter((e) => e.type.startsWith("leader_"));
    assert.ok(
      leadership.length <= 3,
      `${term} terms, but ${leadership.length} leadership events: ${
        leadership.map((e) => e.text).join(" | ")
      }`,
    );
    assert.ok(!history.some((e) => e.reason === "not_handed_over"), "every rotation handed over");
    assert.ok(history.some((e) => e.type === "leader_rotations"), "rotations noted");
  } finally {
    await Promise.all([a.stop(), b.stop()]);
  }
});
