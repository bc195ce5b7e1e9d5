import assert from "node:assert/strict";
import dev from "../../config/dev.yaml" with { type: "text" };
import example from "../../config/example.yaml" with { type: "text" };
import compose from "../../config/compose.yaml" with { type: "text" };
import demo from "../../config/demo.yaml" with { type: "text" };
import { yamlAllowed, yamlTest } from "./_testing.ts";
import { loadConfig, parseConfig } from "./load.ts";
import type { Config } from "./types.ts";

const DEV_PATH = new URL("../../config/dev.yaml", import.meta.url);
const EXAMPLE_PATH = new URL("../../config/example.yaml", import.meta.url);

yamlTest("config/dev.yaml loads with short local timings", () => {
  const config = parseConfig(dev, "config/dev.yaml");
  const { election, namespaces, leaderStore, store, process } = config.shardDistribution;
  assert.deepEqual(
    namespaces.map((n) => ({
      name: n.name,
      kind: n.kind,
      shardNum: "shardNum" in n && n.shardNum,
    })),
    [
      { name: "my-fixed-namespace", kind: "fixed", shardNum: 32 },
      { name: "my-ephemeral-namespace", kind: "ephemeral", shardNum: false },
    ],
  );
  assert.deepEqual(leaderStore?.storageParams.endpoints, ["127.0.0.1:2379"]);
  assert.deepEqual(store?.storageParams.endpoints, ["127.0.0.1:2379"]);
  assert.equal(leaderStore?.storageParams.electionTtlMs, 3_000);
  assert.equal(election.leaderPeriodMs, 60_000);
  assert.equal(process.periodMs, 1_000);
  assert.equal(process.heartbeatTtlMs, 2_000);
});

yamlTest("config/example.yaml loads and spells out exactly the defaults", () => {
  const written = parseConfig(example, "config/example.yaml");
  // Dropping every optional key and section must give the same configuration.
  const store = (prefix: string) =>
    `    storageParams:\n      endpoints: [localhost:2379]\n      prefix: ${prefix}\n`;
  const minimal = "shardDistribution:\n  namespaces:\n" +
    "    - { name: my-fixed-namespace, type: fixed, shardNum: 32 }\n" +
    "    - { name: my-ephemeral-namespace, type: ephemeral }\n" +
    `  leaderStore:\n${store("leader")}  store:\n${store("store")}`;
  const defaults: Config = parseConfig(minimal);
  // The same configuration; only the entries as written (kept to print them back) differ.
  const withoutSpecs = (config: Config) => ({
    ...config,
    shardDistribution: { ...config.shardDistribution, namespaceSpecs: undefined },
  });
  assert.deepEqual(withoutSpecs(written), withoutSpecs(defaults));
});

Deno.test({
  name: "loadConfig reads both configuration files from disk",
  ignore: !yamlAllowed ||
    Deno.permissions.querySync({ name: "read", path: DEV_PATH }).state !== "granted" ||
    Deno.permissions.querySync({ name: "read", path: EXAMPLE_PATH }).state !== "granted",
  async fn() {
    assert.deepEqual(await loadConfig(DEV_PATH.pathname), parseConfig(dev));
    assert.deepEqual(await loadConfig(EXAMPLE_PATH.pathname), parseConfig(example));
  },
});

yamlTest("config/compose.yaml loads and points at the compose etcd cluster", () => {
  const config = parseConfig(compose, "config/compose.yaml");
  assert.deepEqual(config.shardDistribution.store?.storageParams.endpoints, [
    "etcd-0:2379",
    "etcd-1:2379",
    "etcd-2:2379",
  ]);
  assert.equal(config.server.grpcAddress, "0.0.0.0:7943");
});

yamlTest("config/demo.yaml runs on the embedded store without etcd", () => {
  const { shardDistribution } = parseConfig(demo, "config/demo.yaml");
  assert.deepEqual(shardDistribution.embedded, { dataDir: ".data/embedded" });
  assert.equal(shardDistribution.store, undefined);
  assert.equal(shardDistribution.leaderStore, undefined);
  assert.deepEqual(shardDistribution.namespaces.map((n) => n.name), [
    "demo-fixed",
    "demo-ephemeral",
  ]);
});

yamlTest("embedded and etcd stores exclude each other", () => {
  const base = `shardDistribution:
  namespaces: [{ name: a, type: ephemeral }]
  embedded: {}
`;
  assert.equal(parseConfig(base).shardDistribution.embedded?.dataDir, ".data/embedded");
  assert.throws(
    () => parseConfig(base + "  store: { storageParams: { endpoints: [a:1] } }\n"),
    /store: not allowed with embedded/,
  );
});
