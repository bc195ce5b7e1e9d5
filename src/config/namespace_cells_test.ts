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

yamlTest("a cells namespace keeps its mode and pins", () => {
  const parsed = parseConfig(
    config("{ name: customers, type: ephemeral, mode: cells, pins: { big-co: cell-9 } }"),
  );
  assert.deepEqual(parsed.shardDistribution.namespaces[0], {
    kind: "cells",
    name: "customers",
    pins: { "big-co": "cell-9" },
  });
});

yamlTest("mode: cells is refused on a fixed namespace, with the YAML path", () => {
  assert.match(
    errorOf("{ name: c, type: fixed, shardNum: 4, mode: cells }"),
    /shardDistribution\.namespaces\[0\]\.mode: cells requires type: ephemeral/,
  );
});

yamlTest("mode: cells refuses a load balancer or a move budget", () => {
  assert.match(
    errorOf("{ name: c, type: ephemeral, mode: cells, loadBalancer: greedy }"),
    /namespaces\[0\]\.loadBalancer: must be absent with mode: cells/,
  );
  assert.match(
    errorOf("{ name: c, type: ephemeral, mode: cells, maxMovesPerPass: 0 }"),
    /namespaces\[0\]\.maxMovesPerPass: must be absent with mode: cells/,
  );
});

yamlTest("pins are refused outside mode: cells, and an unknown mode is named", () => {
  assert.match(
    errorOf("{ name: c, type: ephemeral, pins: { a: b } }"),
    /namespaces\[0\]\.pins: only allowed with mode: cells/,
  );
  assert.match(errorOf("{ name: c, type: ephemeral, mode: shuffle }"), /namespaces\[0\]\.mode/);
  assert.match(
    errorOf('{ name: c, type: ephemeral, mode: cells, pins: { a: "" } }'),
    /namespaces\[0\]\.pins\.a/,
  );
});
