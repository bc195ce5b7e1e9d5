/**
 * SIGHUP re-reads the configuration file's namespaces in a running service
 * process (real etcd): added ones start, changed ones are updated, removed
 * ones are deleted, each change is logged, an unappliable change is refused
 * with the reason and leaves its namespace as it was, and an invalid file is
 * refused as a whole.
 */
import assert from "node:assert/strict";
import { startEtcd, uniquePrefix } from "./support/etcd.ts";
import { eventually } from "./support/executors.ts";
import { call, connect } from "./support/grpc_clients.ts";
import { startProcess, testConfigYaml } from "./support/service.ts";

Deno.test("SIGHUP applies the file's namespace changes, logging each, and refuses unappliable ones", async () => {
  await using etcd = await startEtcd();
  const prefix = uniquePrefix("namespaces reload");
  const yaml = (namespaces: Record<string, unknown>[]) =>
    testConfigYaml({ endpoints: etcd.endpoints, prefix, namespaces }).replace(
      "level: warn",
      "level: info",
    );
  await using service = await startProcess(
    yaml([
      { name: "jobs", type: "fixed", shardNum: 2, loadBalancer: "greedy" },
      { name: "locked", type: "fixed", shardNum: 2 },
      { name: "gone", type: "fixed", shardNum: 2 },
    ]),
    "reload-1",
  );
  const clients = connect(service.address);
  const names = async () =>
    (await call<unknown, { namespaces: { name: string; source: string }[] }>(
      clients.api,
      "listNamespaces",
      {},
    )).namespaces.map((n) => `${n.name}:${n.source}`).sort();
  const definition = async (namespace: string) =>
    (await call<unknown, { definition: { definitionYaml: string } }>(
      clients.api,
      "getNamespaceDefinition",
      { namespace },
    )).definition.definitionYaml;
  try {
    assert.deepEqual(await names(), ["gone:file", "jobs:file", "locked:file"]);

    // An invalid file changes nothing.
    await Deno.writeTextFile(service.configPath, yaml([{ name: "jobs", type: "fixed" }]));
    service.signal("SIGHUP");
    await eventually(
      () => /configuration reload refused: the file is invalid/.test(service.logs()),
      10_000,
      "the invalid file to be refused",
    );
    assert.match(service.logs(), /shardNum: required/);
    assert.deepEqual(await names(), ["gone:file", "jobs:file", "locked:file"]);

    await Deno.writeTextFile(
      service.configPath,
      yaml([
        { name: "jobs", type: "fixed", shardNum: 2, loadBalancer: "naive" },
        { name: "locked", type: "fixed", shardNum: 2, ownership: "exclusive" },
        { name: "extra", type: "ephemeral" },
      ]),
    );
    service.signal("SIGHUP");
    await eventually(
      () => /"msg":"configuration reloaded"/.test(service.logs()),
      20_000,
      "the reload to finish",
    );
    const logs = service.logs();
    assert.match(
      logs,
      /"msg":"file namespace changed","namespace":"jobs","detail":"loadBalancer: \\"greedy\\" → \\"naive\\""/,
    );
    assert.match(
      logs,
      /"msg":"file namespace refused","namespace":"locked","detail":"Refused: cannot switch ownership from available to exclusive/,
    );
    assert.match(logs, /"msg":"file namespace deleted","namespace":"gone"/);
    assert.match(logs, /"msg":"file namespace created","namespace":"extra"/);
    await eventually(
      async () => (await names()).join() === "extra:file,jobs:file,locked:file",
      2_000,
      "the namespaces to follow the file",
    );
    assert.match(await definition("jobs"), /loadBalancer: naive/);
    assert.doesNotMatch(
      await definition("locked"),
      /exclusive/,
      "the refused change left it as it was",
    );
  } finally {
    clients.close();
  }
});
