/**
 * Dashboard actions under `security.auth`: an operator bearer token is
 * needed; read-only pages stay open.
 */
import assert from "node:assert/strict";
import { sha256Hex } from "../src/security/mod.ts";
import { startEtcd, uniquePrefix } from "./support/etcd.ts";
import { startInProcess, testConfigYaml } from "./support/service.ts";

Deno.test("dashboard actions need an operator token when auth is configured; reads stay open", async () => {
  await using etcd = await startEtcd();
  const yaml = testConfigYaml({
    endpoints: etcd.endpoints,
    prefix: uniquePrefix("security dashboard"),
    namespaces: [{ name: "jobs", type: "fixed", shardNum: 4 }],
    security: {
      auth: {
        tokens: [
          { name: "ops", roles: ["operator"], sha256: await sha256Hex("operator-token") },
          { name: "viewer", roles: ["spectator"], sha256: await sha256Hex("viewer-token") },
        ],
      },
    },
  }).replace(
    "  httpAddress: 127.0.0.1:0\n",
    "  httpAddress: 127.0.0.1:0\n  dashboardActions: true\n",
  );
  const instance = await startInProcess(yaml);
  const http = `http://${instance.http.address}`;
  const drain = (keys: string[], token?: string) =>
    fetch(`${http}/api/namespaces/jobs/shards/drain`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        ...(token ? { authorization: `Bearer ${token}` } : {}),
      },
      body: JSON.stringify({ shardKeys: keys }),
    });
  try {
    const page = await fetch(`${http}/api/namespaces/jobs`);
    assert.equal(page.status, 200);
    await page.body?.cancel();

    const anonymous = await drain(["1"]);
    assert.equal(anonymous.status, 401);
    assert.equal(anonymous.headers.get("www-authenticate"), "Bearer");
    assert.match((await anonymous.json()).error, /needs the operator role/);
    const viewer = await drain(["1"], "viewer-token");
    assert.equal(viewer.status, 403);
    assert.match((await viewer.json()).error, /token:viewer may not call DrainShards/);
    assert.deepEqual(instance.manager.operations.drainedShards("jobs"), []);

    const ops = await drain(["2"], "operator-token");
    assert.equal(ops.status, 200, await ops.clone().text());
    await ops.body?.cancel();
    assert.deepEqual(instance.manager.operations.drainedShards("jobs"), ["2"]);
  } finally {
    await instance.stop();
  }
});
