/**
 * An instance started while etcd does not answer waits for it (src/store_start_wait.ts) instead
 * of exiting with "Cannot start: etcd transaction failed" (found by the soak, issue 42: instances
 * restarted during a quorum loss exited again until a supervisor tried once more).
 */
import assert from "node:assert/strict";
import { startEtcdCluster, uniquePrefix } from "./support/etcd.ts";
import { eventually } from "./support/executors.ts";
import { startProcess, testConfigYaml } from "./support/service.ts";

Deno.test("an instance started while etcd is down waits for it, then serves", async () => {
  await using etcd = await startEtcdCluster(3);
  // Every member down: each call is refused at once (with one member left, a call can also
  // hang until etcd's request timeout before the member knows it lost its leader).
  await Promise.all(etcd.members.map((m) => m.kill("SIGKILL")));
  const starting = startProcess(
    testConfigYaml({
      endpoints: etcd.endpoints,
      prefix: uniquePrefix("start-wait"),
      namespaces: [{ name: "ns", type: "fixed", shardNum: 2 }],
    }),
    "start-wait",
  );
  // It has tried and said so before the quorum returns.
  await new Promise((resolve) => setTimeout(resolve, 3_000));
  await Promise.all(etcd.members.map((m) => m.start({ wait: false })));
  await using service = await starting;
  await eventually(() => service.logs().includes("shard manager started"), 15_000, "started");
  const logs = service.logs();
  assert.match(logs, /"msg":"the store does not answer yet; trying again"/);
  assert.ok(
    logs.indexOf("does not answer yet") < logs.indexOf("shard manager started"),
    "waited first",
  );
  assert.equal(service.exited(), undefined);
  const res = await fetch(`http://${service.httpAddress}/healthz`);
  assert.equal(res.status, 200);
  await res.body?.cancel();
});
