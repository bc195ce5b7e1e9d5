/**
 * Namespaces as data on the embedded store: a namespace created through the
 * API survives a restart of the service (definitions.json), alongside the
 * file's seeded ones, and its revisions keep growing after the reopen.
 */
import assert from "node:assert/strict";
import { startInstance } from "../src/app.ts";
import { parseConfig } from "../src/config/mod.ts";
import { silentLogger } from "../src/core/logger.ts";

Deno.test("embedded store: a namespace created through the API survives a restart", async () => {
  const dir = await Deno.makeTempDir({ prefix: "sm-embedded-ns-" });
  const config = (loadBalancer = "greedy") =>
    parseConfig(`shardDistribution:
  namespaces: [{ name: seeded, type: fixed, shardNum: 2, loadBalancer: ${loadBalancer} }]
  embedded: { dataDir: ${JSON.stringify(dir)} }
  process: { period: 500ms, heartbeatTTL: 2s }
server: { grpcAddress: 127.0.0.1:0, httpAddress: 127.0.0.1:0 }
log: { level: warn }
`);
  try {
    const first = await startInstance(config(), silentLogger);
    let revision: number;
    try {
      const created = await first.manager.admin.create(
        "orders",
        "name: orders\ntype: ephemeral\nmaxShards: 5\n",
      );
      revision = created.revision;
      assert.ok(first.manager.namespaces.has("orders"));
      assert.deepEqual(
        first.manager.routing.listNamespaces().map((n) => `${n.name}:${n.source}`).sort(),
        ["orders:api", "seeded:file"],
      );
    } finally {
      await first.stop();
    }
    const second = await startInstance(config(), silentLogger);
    try {
      assert.deepEqual(second.manager.namespaces.names(), ["orders", "seeded"]);
      assert.deepEqual(second.manager.namespaces.policy("orders").keys, {
        kind: "ephemeral",
        maxShards: 5,
      });
      const updated = await second.manager.admin.update(
        "orders",
        "name: orders\ntype: ephemeral\nmaxShards: 7\n",
      );
      assert.ok(updated.definition.revision > revision, "revisions keep growing after a reopen");
      await assert.rejects(
        second.manager.admin.update("orders", "name: orders\ntype: ephemeral\nmaxShards: 9\n", {
          expectedRevision: revision,
        }),
        /is at revision \d+, not \d+; read it again/,
      );
      assert.deepEqual(updated.changes, ["maxShards: 5 → 7"]);
      assert.deepEqual(second.manager.namespaces.policy("orders").keys, {
        kind: "ephemeral",
        maxShards: 7,
      });
      await assert.rejects(
        second.manager.admin.update("seeded", "name: seeded\ntype: fixed\nshardNum: 2\n"),
        /defined in the configuration file/,
      );
    } finally {
      await second.stop();
    }
    // Restarted with a changed file: applied at start, without waiting for a catalog not yet running.
    const started = performance.now();
    const third = await startInstance(config("naive"), silentLogger);
    try {
      assert.ok(performance.now() - started < 3_000, "the start did not wait on the change");
      const seeded = third.manager.namespaces.policy("seeded");
      assert.equal(seeded.keys.kind, "fixed");
      assert.ok(seeded.placement.kind === "balanced" && seeded.placement.balancer.name === "naive");
      assert.deepEqual(third.manager.namespaces.policy("orders").keys, {
        kind: "ephemeral",
        maxShards: 7,
      });
    } finally {
      await third.stop();
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
