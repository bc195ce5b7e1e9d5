import assert from "node:assert/strict";
import type { DashboardState } from "../src/transport/http/dashboard/mod.ts";
import { startEtcd, uniquePrefix } from "./support/etcd.ts";
import { connect } from "./support/grpc_clients.ts";
import { eventually, runExecutors } from "./support/executors.ts";
import { startInProcess, testConfigYaml } from "./support/service.ts";

/** The test configuration, with `server.dashboardActions` set. */
function yaml(endpoints: string[], name: string, actions: boolean): string {
  return testConfigYaml({
    endpoints,
    prefix: uniquePrefix(name),
    namespaces: [{ name: "ns", type: "fixed", shardNum: 12 }, { name: "eph", type: "ephemeral" }],
  }).replace(
    "  httpAddress: 127.0.0.1:0\n",
    `  httpAddress: 127.0.0.1:0\n  dashboardActions: ${actions}\n`,
  );
}

/** Reads server-sent `state` events from a fetch response. */
function stateEvents(response: Response) {
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  return {
    async next(): Promise<DashboardState> {
      while (true) {
        const end = buffer.indexOf("\n\n");
        if (end >= 0) {
          const frame = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const lines = frame.split("\n");
          if (!lines.includes("event: state")) continue;
          return JSON.parse(lines.find((l) => l.startsWith("data: "))!.slice(6));
        }
        const { value, done } = await reader.read();
        if (done) throw new Error("the event stream ended");
        buffer += value;
      }
    },
    /** Reads events until `check` holds for one, within `timeoutMs`. */
    async until(check: (s: DashboardState) => boolean, timeoutMs: number, what: string) {
      const deadline = Date.now() + timeoutMs;
      while (Date.now() < deadline) {
        const state = await this.next();
        if (check(state)) return state;
      }
      throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what}`);
    },
    cancel: () => reader.cancel(),
  };
}

const JSON_POST = { "content-type": "application/json" };

Deno.test("dashboard JSON endpoints show executors, shards and leader; actions off answer 403", async () => {
  await using etcd = await startEtcd();
  const instance = await startInProcess(yaml(etcd.endpoints, "dash-json", false), "dash-1");
  const clients = connect(instance.server.address);
  const executors = runExecutors(clients, "ns", ["a", "b", "c"], { intervalMs: 200 });
  const http = `http://${instance.http.address}`;
  try {
    const list = await fetch(`${http}/api/namespaces`).then((r) => r.json());
    assert.deepEqual(list.namespaces.map((n: { name: string }) => n.name), ["ns", "eph"]);
    assert.equal(list.allowActions, false);
    assert.equal(list.instanceId, "dash-1");
    let state: DashboardState | undefined;
    await eventually(
      async () => {
        state = await fetch(`${http}/api/namespaces/ns`).then((r) => r.json());
        return state!.executors.length === 3 &&
          state!.executors.every((e) => e.shardCount === 4) &&
          state!.leader.instanceId === "dash-1";
      },
      15_000,
      "4 shards each and a leader",
    );
    assert.deepEqual(state!.executors.map((e) => [e.executorId, e.shardCount]), [
      ["a", 4],
      ["b", 4],
      ["c", 4],
    ]);
    assert.ok(state!.executors.every((e) => e.alive && e.status === "ACTIVE"));
    assert.equal(state!.shards.keys.length, 12);
    assert.ok(state!.shards.owners.every((o) => o >= 0 && o < 3));
    assert.equal(typeof state!.leader.term, "number");

    const page = await fetch(`${http}/`);
    assert.match(page.headers.get("content-type") ?? "", /text\/html/);
    assert.match(await page.text(), /Shard Manager/);

    const missing = await fetch(`${http}/api/namespaces/nope`);
    assert.equal(missing.status, 404);
    assert.match((await missing.json()).error, /Namespace "nope" not found/);
    const missingEvents = await fetch(`${http}/api/namespaces/nope/events`);
    assert.equal(missingEvents.status, 404);
    await missingEvents.body?.cancel();

    const refused = await fetch(`${http}/api/namespaces/ns/executors/drain`, {
      method: "POST",
      headers: JSON_POST,
      body: JSON.stringify({ executorId: "a" }),
    });
    assert.equal(refused.status, 403);
    assert.match((await refused.json()).error, /server\.dashboardActions/);
    assert.equal((await fetch(`${http}/healthz`).then((r) => r.json())).status, "ok");
  } finally {
    for (const e of executors) e.stop();
    clients.close();
    await instance.stop();
  }
});

Deno.test("dashboard events follow a drain made through the actions, with errors mapped", async () => {
  await using etcd = await startEtcd();
  const instance = await startInProcess(yaml(etcd.endpoints, "dash-sse", true));
  const clients = connect(instance.server.address);
  const executors = runExecutors(clients, "ns", ["a", "b"], { intervalMs: 200 });
  const http = `http://${instance.http.address}`;
  const tab = new AbortController();
  const post = (path: string, body: unknown, headers: Record<string, string> = JSON_POST) =>
    fetch(`${http}/api/namespaces/${path}`, {
      method: "POST",
      headers,
      body: JSON.stringify(body),
    });
  try {
    const response = await fetch(`${http}/api/namespaces/ns/events`, { signal: tab.signal });
    assert.equal(response.headers.get("content-type"), "text/event-stream; charset=utf-8");
    const events = stateEvents(response);
    const balanced = await events.until(
      (s) => s.executors.length === 2 && s.executors.every((e) => e.shardCount === 6),
      15_000,
      "6 shards each",
    );
    assert.equal(typeof balanced.version, "number");
    assert.equal(balanced.allowActions, true);

    // With no change, the refresh still sends the picture with fresh heartbeat ages.
    const refreshed = await events.next();
    assert.ok(refreshed.generatedAtMs > balanced.generatedAtMs);

    const drained = await post("ns/executors/drain", { executorId: "a", reason: "test" });
    assert.equal(drained.status, 200);
    assert.deepEqual((await drained.json()).drain.executorId, "a");
    const moved = await events.until(
      (s) => s.executors.find((e) => e.executorId === "a")?.shardCount === 0,
      15_000,
      "executor a emptied",
    );
    assert.deepEqual(moved.executors.find((e) => e.executorId === "a")?.drainedBy, ["id:a"]);
    assert.deepEqual(moved.executorDrains.map((d) => [d.id, d.reason]), [["id:a", "test"]]);
    assert.ok(moved.shards.owners.every((o) => o === 1), "b owns every shard");

    const shardDrain = await post("ns/shards/drain", { shardKeys: ["3", "4"] });
    assert.deepEqual(await shardDrain.json(), { drainedShardKeys: ["3", "4"] });
    const withDrains = await events.until(
      (s) => s.drainedShards.join() === "3,4" && s.summary.owned === 10,
      15_000,
      "shards 3 and 4 drained and released",
    );
    assert.equal(withDrains.summary.drained, 2);

    const errors: [string, unknown, Record<string, string>, number, RegExp][] = [
      ["ns/shards/drain", { shardKeys: ["12"] }, JSON_POST, 404, /Shard "12" not found/],
      ["ns/shards/drain", { shardKeys: [] }, JSON_POST, 400, /at least one shard/],
      ["ns/executors/drain", {}, JSON_POST, 400, /executor id or a selector/],
      ["nope/shards/drain", { shardKeys: ["1"] }, JSON_POST, 404, /Namespace "nope"/],
      ["ns/shards/drain", { shardKeys: ["1"] }, { "content-type": "text/plain" }, 415, /json/],
      [
        "ns/shards/drain",
        { shardKeys: ["1"] },
        { ...JSON_POST, origin: "http://evil.example" },
        403,
        /Cross-origin/,
      ],
    ];
    for (const [path, body, headers, status, message] of errors) {
      const res = await post(path, body, headers);
      assert.equal(res.status, status, `${path} ${JSON.stringify(body)}`);
      assert.match((await res.json()).error, message);
    }

    const refused = await post("ns/executors/drain", { selector: { address: "b.example:1234" } });
    assert.equal(refused.status, 409, "the disruption budget refuses the last executor");
    assert.match((await refused.json()).error, /no eligible owner/);
    const selector = await post("ns/executors/drain", {
      selector: { address: "b.example:1234" },
      force: true,
    });
    assert.deepEqual((await selector.json()).matched, ["b"]);
    assert.equal(
      (await post("ns/executors/undrain", { selector: { address: "b.example:1234" } })).status,
      200,
    );
    const undrained = await post("ns/executors/undrain", { executorId: "a" });
    assert.equal((await undrained.json()).removed.drain.id, "id:a");
    assert.equal((await post("ns/shards/undrain", { shardKeys: ["3", "4"] })).status, 200);
    await events.until(
      (s) =>
        s.drainedShards.length === 0 && s.executorDrains.length === 0 &&
        s.executors.every((e) => e.shardCount === 6),
      15_000,
      "everything undrained and rebalanced",
    );
    tab.abort();
  } finally {
    tab.abort();
    for (const e of executors) e.stop();
    clients.close();
    await instance.stop();
  }
});
