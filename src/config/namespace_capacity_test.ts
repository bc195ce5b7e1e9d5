import assert from "node:assert/strict";
import { parseConfig } from "./load.ts";
import { ConfigError } from "./errors.ts";
import { yamlTest } from "./_testing.ts";

function config(namespace: string): string {
  return `shardDistribution:
  namespaces:
    - ${namespace}
  leaderStore: { storageParams: { endpoints: [localhost:2379] } }
  store: { storageParams: { endpoints: [localhost:2379] } }
`;
}

function errorOf(namespace: string): string {
  try {
    parseConfig(config(namespace), "c.yaml");
  } catch (error) {
    assert.ok(error instanceof ConfigError);
    return error.message;
  }
  throw new Error("expected a ConfigError");
}

yamlTest("executorCapacity and massLoss are read into the namespace", () => {
  const parsed = parseConfig(config(
    "{ name: o, type: fixed, shardNum: 8, executorCapacity: { shards: 3, load: 2.5 }, " +
      "massLoss: { share: 0.5, window: 10s, minLost: 3 } }",
  ));
  const namespace = parsed.shardDistribution.namespaces[0]!;
  assert.equal(namespace.kind, "fixed");
  if (namespace.kind !== "fixed") return;
  assert.deepEqual(namespace.executorCapacity, { shards: 3, load: 2.5 });
  assert.deepEqual(namespace.massLoss, { share: 0.5, windowMs: 10_000, minLost: 3 });
});

yamlTest("a bad capacity or mass-loss setting is refused with its YAML path", () => {
  assert.match(
    errorOf("{ name: o, type: fixed, shardNum: 8, executorCapacity: { shards: 0 } }"),
    /namespaces\[0\]\.executorCapacity\.shards: expected an integer from 1/,
  );
  assert.match(
    errorOf("{ name: o, type: fixed, shardNum: 8, executorCapacity: { load: -1 } }"),
    /executorCapacity\.load: expected a positive number of load units, got -1/,
  );
  assert.match(
    errorOf("{ name: o, type: fixed, shardNum: 8, executorCapacity: { cpu: 2 } }"),
    /executorCapacity\.cpu: unknown key "cpu"; expected one of: shards, load/,
  );
  assert.match(
    errorOf("{ name: o, type: fixed, shardNum: 8, massLoss: { share: 2 } }"),
    /massLoss\.share: expected a share from 0 to 1/,
  );
  assert.match(
    errorOf("{ name: c, type: ephemeral, mode: cells, executorCapacity: { shards: 2 } }"),
    /executorCapacity: does not apply to a cells namespace/,
  );
});
