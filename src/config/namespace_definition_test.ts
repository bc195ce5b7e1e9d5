import assert from "node:assert/strict";
import { ConfigError } from "./errors.ts";
import { namespaceSchema } from "./namespace_schema.ts";
import {
  formatNamespaceSpec,
  namespaceSpec,
  parseNamespaceDefinition,
} from "./namespace_definition.ts";

const EXAMPLES = [
  { name: "a", type: "fixed", shardNum: 8 },
  { name: "b", type: "ephemeral", maxShards: 5, loadBalancer: "naive", maxMovesPerPass: 3 },
  { name: "c", type: "fixed", shardNum: 4, ownership: "exclusive", ownershipLease: "1m30s" },
  { name: "d", type: "fixed", shardNum: 6, replicas: 2, zoneKey: "rack" },
  { name: "e", type: "fixed", shardNum: 6, replicas: 3, placement: "shuffle", maxOverlap: 1 },
  { name: "f", type: "ephemeral", mode: "cells", pins: { t1: "cell-a" } },
  {
    name: "g",
    type: "fixed",
    shardNum: 6,
    settleWindow: "5s",
    coldStartWait: "30s",
    minImprovement: 0.2,
    shardCooldown: "0s",
  },
];

Deno.test("a namespace spec written out from its configuration reads back into the same configuration", () => {
  for (const example of EXAMPLES) {
    const config = namespaceSchema.parse(example);
    const again = parseNamespaceDefinition(formatNamespaceSpec(namespaceSpec(config))).config;
    assert.deepEqual(again, config, example.name);
  }
});

Deno.test("a parsed definition prints back as it was written", () => {
  const text =
    "name: orders\ntype: fixed\nshardNum: 8\nownership: exclusive\nownershipLease: 10s\n";
  const { spec } = parseNamespaceDefinition(text);
  assert.equal(formatNamespaceSpec(spec), text);
});

Deno.test("definition errors name the field and its line, like the configuration file's", () => {
  let message = "";
  try {
    parseNamespaceDefinition("name: o\ntype: fixed\nshardNum: 0\nbogus: 1\n", "o.yaml");
  } catch (error) {
    assert.ok(error instanceof ConfigError);
    message = error.message;
  }
  assert.match(message, /o\.yaml:3: shardNum: /);
  assert.match(message, /o\.yaml:4: bogus: unknown key "bogus"/);
  assert.throws(() => parseNamespaceDefinition(""), /the namespace definition is empty/);
});
