import assert from "node:assert/strict";
import { parseConfig } from "./load.ts";
import { ConfigError } from "./errors.ts";
import { yamlTest } from "./_testing.ts";
import { RANGE_DEFAULTS, rangeSettingsSchema } from "./range_settings.ts";
import { namespaceSpec } from "./namespace_definition.ts";

function errorOf(namespace: string): string {
  const text = `shardDistribution:
  namespaces:
    - ${namespace}
  leaderStore: { storageParams: { endpoints: [localhost:2379] } }
  store: { storageParams: { endpoints: [localhost:2379] } }
`;
  try {
    parseConfig(text, "c.yaml");
  } catch (error) {
    assert.ok(error instanceof ConfigError);
    return error.message;
  }
  throw new Error("expected a ConfigError");
}

yamlTest(
  "a range namespace is read with its settings, and fields that do not apply are refused",
  () => {
    const text = `shardDistribution:
  namespaces:
    - { name: keys, type: range, range: { churnBudget: 8 }, zoneKey: rack }
  leaderStore: { storageParams: { endpoints: [localhost:2379] } }
  store: { storageParams: { endpoints: [localhost:2379] } }
`;
    const keys = parseConfig(text, "c.yaml").shardDistribution.namespaces[0]!;
    assert.equal(keys.kind, "range");
    if (keys.kind !== "range") return;
    assert.deepEqual(keys.range, { ...RANGE_DEFAULTS, churnBudget: 8 });
    assert.equal(keys.zoneKey, "rack");
    assert.match(
      errorOf("{ name: keys, type: range, shardNum: 8 }"),
      /namespaces\[0\]\.shardNum: does not apply to a range namespace/,
    );
    assert.match(
      errorOf("{ name: keys, type: range, loadBalancer: naive }"),
      /namespaces\[0\]\.loadBalancer: does not apply to a range namespace/,
    );
    assert.match(
      errorOf("{ name: keys, type: range, ownershipLease: 5s }"),
      /namespaces\[0\]\.ownershipLease: applies only to a namespace with ownership: exclusive/,
    );
  },
);

yamlTest("a range namespace's bad settings are named", () => {
  const message = errorOf(
    "{ name: keys, type: range, range: { slicesPerExecutor: { min: 50, target: 32 } } }",
  );
  assert.match(message, /namespaces\[0\]\.range\.slicesPerExecutor: expected min ≤ target ≤ max/);
  assert.match(
    errorOf("{ name: keys, type: range, range: { splitThreshold: 0 } }"),
    /range\.splitThreshold: expected a share of the mean executor load above 0/,
  );
  assert.match(
    errorOf("{ name: keys, type: range, range: { slices: 4 } }"),
    /range\.slices: unknown key "slices"; expected one of: initialSlices, slicesPerExecutor/,
  );
});

yamlTest("range: is refused on a fixed or ephemeral namespace", () => {
  assert.match(
    errorOf("{ name: o, type: ephemeral, range: {} }"),
    /namespaces\[0\]\.range: only allowed with type: range/,
  );
});

Deno.test("range settings take their defaults and refuse self-defeating thresholds", () => {
  assert.deepEqual(rangeSettingsSchema.parse({}), RANGE_DEFAULTS);
  const issues = (input: unknown) =>
    rangeSettingsSchema.safeParse(input).error?.issues.map((i) => `${i.path}: ${i.message}`) ?? [];
  assert.match(issues({ mergeThreshold: 0.1 })[0]!, /^mergeThreshold: must be at most half/);
  assert.match(issues({ hotKeyThreshold: 0.2 })[0]!, /^hotKeyThreshold: must be at most the split/);
  assert.match(
    issues({ replicas: 4, maxHotKeyReplicas: 2 })[0]!,
    /^maxHotKeyReplicas: must be at least replicas \(4\), got 2/,
  );
  assert.match(issues({ churnBudget: -1 })[0]!, /^churnBudget: expected an integer from 0/);
  assert.deepEqual(issues({ replicas: 3, churnBudget: 0, imbalanceTolerance: 0.05 }), []);
});

yamlTest("a range namespace may be exclusive, with its lease, and reads back the same", () => {
  const text = `shardDistribution:
  namespaces:
    - { name: ledgers, type: range, ownership: exclusive, ownershipLease: 5s }
  leaderStore: { storageParams: { endpoints: [localhost:2379] } }
  store: { storageParams: { endpoints: [localhost:2379] } }
`;
  const config = parseConfig(text, "c.yaml").shardDistribution.namespaces[0]!;
  assert.equal(config.kind, "range");
  if (config.kind !== "range") return;
  assert.deepEqual(config.ownership, { mode: "exclusive", leaseMs: 5_000 });
  const spec = namespaceSpec(config);
  assert.deepEqual([spec.ownership, spec.ownershipLease], ["exclusive", "5s"]);
  assert.match(
    errorOf("{ name: keys, type: range, ownershipLease: 5s }"),
    /ownershipLease: applies only to a namespace with ownership: exclusive/,
  );
});
