/**
 * `smctl shard list` shows the shards the leader quarantined (issue 41):
 * against a real service on real etcd, a quarantined shard (drained with the
 * reason `quarantined`, as the leader's poison-shard step writes it) is
 * listed after the owned ones with its reason, in the table and in JSON; an
 * operator's drain is not; `--owner` lists one executor's shards only.
 */
import assert from "node:assert/strict";
import { createEtcdClient, EtcdStore } from "../src/store/etcd/mod.ts";
import { eventually } from "./support/executors.ts";
import { startSmctlFixture } from "./support/smctl_fixture.ts";
import { json, tableRows } from "./support/smctl.ts";

Deno.test("smctl shard list lists quarantined shards with their reason", async () => {
  await using fx = await startSmctlFixture("smctl-shard-list-quarantined");
  const prefix = fx.yaml.match(/prefix: "([^"]+\/store)"/)?.[1];
  assert.ok(prefix, "the store's prefix");
  const store = new EtcdStore(
    createEtcdClient({ endpoints: fx.etcd.endpoints, dialTimeoutMs: 5_000 }),
    prefix,
  );
  try {
    await store.setDrained("ns", ["7"], true, "quarantined");
    await store.setDrained("ns", ["3"], true); // an operator's drain: not listed
    await eventually(
      () => fx.instance.manager.operations.quarantinedShards("ns").includes("7"),
      10_000,
      "the instance sees the quarantine",
    );
    await eventually(
      async () => {
        const listed = json<{ shards: { key: string }[] }>(
          await fx.run(["-n", "ns", "shard", "list", "--json"]),
        ).shards;
        return listed.length === 10;
      },
      10_000,
      "the drained shards are unassigned",
    );
    const answer = json<{ shards: { key: string }[]; quarantined: unknown[] }>(
      await fx.run(["-n", "ns", "shard", "list", "--json"]),
    );
    assert.deepEqual(answer.quarantined, [{ key: "7", reason: "quarantined" }]);
    assert.ok(!answer.shards.some((s) => s.key === "7" || s.key === "3"));

    const table = await fx.run(["-n", "ns", "shard", "list"]);
    assert.equal(table.code, 0, table.stderr);
    const rows = tableRows(table.stdout);
    assert.deepEqual(rows.at(-1), ["7", "(quarantined)", "-", "-", "-"]);
    assert.ok(!rows.some((r) => r[0] === "3"), "an operator's drain is not listed");

    const mine = json<Record<string, unknown>>(
      await fx.run(["-n", "ns", "shard", "list", "--owner", "a", "--json"]),
    );
    assert.equal(mine.quarantined, undefined, "--owner lists that executor's shards only");
  } finally {
    await store.close();
  }
});
