import assert from "node:assert/strict";
import { parseConfig } from "../../src/config/mod.ts";
import { chaosConfigYaml, chaosNamespaces, EXCLUSIVE_NAMESPACE } from "./config.ts";

const instance = (exclusive: boolean) =>
  chaosConfigYaml({
    endpoints: ["127.0.0.1:1", "127.0.0.1:2", "127.0.0.1:3"],
    prefix: "chaos-test",
    grpcPort: 7001,
    httpPort: 7002,
    namespaces: chaosNamespaces({ exclusive, shards: 6 }),
  });

Deno.test("the chaos config parses, with every namespace available by default", () => {
  const config = parseConfig(instance(false), "chaos.yaml");
  assert.deepEqual(
    config.shardDistribution.namespaces.map((n) => n.kind === "fixed" ? n.shardNum : 0),
    [6, 6],
  );
  assert.equal(config.server.grpcAddress, "127.0.0.1:7001");
  assert.ok(!instance(false).includes("ownership"));
});

Deno.test("--exclusive marks exactly one namespace exclusive", () => {
  const yaml = instance(true);
  assert.equal(yaml.match(/"ownership":"exclusive"/g)?.length, 1);
  assert.ok(
    yaml.includes(`"name":"${EXCLUSIVE_NAMESPACE}","type":"fixed","shardNum":6,"ownership"`),
  );
});
