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

function parsed(namespace: string) {
  return parseConfig(config(namespace)).shardDistribution.namespaces[0];
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

yamlTest("replicas: 1 and placement: balanced are the defaults and stay absent", () => {
  const plain = parsed("{ name: a, type: fixed, shardNum: 4 }");
  assert.deepEqual(parsed("{ name: a, type: fixed, shardNum: 4, replicas: 1 }"), plain);
  assert.deepEqual(
    parsed("{ name: a, type: fixed, shardNum: 4, replicas: 1, placement: balanced }"),
    plain,
  );
  assert.ok(plain?.kind === "fixed" && plain.replication === undefined);
});

yamlTest("a replicated and a shuffle-sharded namespace keep their placement", () => {
  assert.deepEqual(parsed("{ name: r, type: fixed, shardNum: 4, replicas: 3, zoneKey: az }"), {
    kind: "fixed",
    name: "r",
    shardNum: 4,
    loadBalancer: "greedy",
    ownership: { mode: "available" },
    replication: { replicas: 3, zoneKey: "az", placement: "balanced" },
  });
  assert.deepEqual(
    parsed("{ name: s, type: ephemeral, replicas: 4, placement: shuffle, maxOverlap: 2 }"),
    {
      kind: "ephemeral",
      name: "s",
      loadBalancer: "greedy",
      ownership: { mode: "available" },
      replication: { replicas: 4, zoneKey: "zone", placement: "shuffle", maxOverlap: 2 },
    },
  );
});

yamlTest("replicas above 1 are refused with exclusive ownership, cells and a load balancer", () => {
  assert.match(
    errorOf("{ name: r, type: ephemeral, replicas: 2, ownership: exclusive }"),
    /namespaces\[0\]\.replicas: above 1 is not supported with ownership: exclusive yet/,
  );
  assert.match(
    errorOf("{ name: r, type: ephemeral, mode: cells, replicas: 2 }"),
    /namespaces\[0\]\.replicas: must be absent with mode: cells/,
  );
  assert.match(
    errorOf("{ name: r, type: ephemeral, replicas: 2, loadBalancer: naive }"),
    /namespaces\[0\]\.loadBalancer: must be absent with replicas: 2/,
  );
  assert.match(
    errorOf("{ name: r, type: ephemeral, replicas: 0 }"),
    /namespaces\[0\]\.replicas/,
  );
});

yamlTest("shuffle placement needs replicas of 2 or more and a maxOverlap below replicas", () => {
  assert.match(
    errorOf("{ name: s, type: ephemeral, placement: shuffle, maxOverlap: 0 }"),
    /namespaces\[0\]\.placement: shuffle needs replicas of 2 or more, got 1/,
  );
  assert.match(
    errorOf("{ name: s, type: ephemeral, replicas: 4, placement: shuffle }"),
    /namespaces\[0\]\.maxOverlap: required with placement: shuffle/,
  );
  assert.match(
    errorOf("{ name: s, type: ephemeral, replicas: 4, placement: shuffle, maxOverlap: 4 }"),
    /namespaces\[0\]\.maxOverlap: must be less than replicas \(4\), got 4/,
  );
  assert.match(
    errorOf("{ name: s, type: ephemeral, replicas: 4, maxOverlap: 2 }"),
    /namespaces\[0\]\.maxOverlap: applies only with placement: shuffle/,
  );
  assert.match(
    errorOf("{ name: s, type: ephemeral, replicas: 30, placement: shuffle, maxOverlap: 10 }"),
    /namespaces\[0\]\.maxOverlap: with replicas 30 gives more than 4096/,
  );
  assert.match(
    errorOf("{ name: s, type: ephemeral, zoneKey: az }"),
    /namespaces\[0\]\.zoneKey: applies only with replicas above 1/,
  );
});
