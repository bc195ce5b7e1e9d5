import { limitsSchema } from "./limits_schema.ts";
import assert from "node:assert/strict";
import { yamlTest } from "./_testing.ts";
import { ConfigError } from "./errors.ts";
import { loadConfig, parseConfig } from "./load.ts";

// The `shardDistribution` block of the design document (seed 000), verbatim.
const SEED = `
shardDistribution:
  election:
    leaderPeriod: 60s # The time before the leader resigns
    maxRandomDelay: 1s # Max random delay before campaigning
    failedElectionCooldown: 1s # The time to wait after an election attempt errors
  namespaces:
    - name: my-fixed-namespace # Namespace name
      type: fixed # Namespace type
      shardNum: 32 # Number of shards in the fixed namespace
    - name: my-ephemeral-namespace # Namespace name
      type: ephemeral # Namespace type
  leaderStore:
    storageParams:
      endpoints: [localhost:2379] # The etcd endpoint of the leader store
      dialTimeout: 1s # Timeout on connecting
      prefix: "leader" # The prefix to use for the etcd keys
  store:
    storageParams:
      endpoints: [localhost:2379] # The etcd endpoint of the main store
      dialTimeout: 1s # Timeout on connecting
      prefix: "store" # The prefix to use for the etcd keys
  process:
    period: 1s # Max time between rebalances, a state change triggers one sooner
    heartbeatTTL: 2s # The time before a heartbeat is considered stale
`;

/** Asserts that parsing `text` fails and returns the error. */
function rejects(text: string, source?: string): ConfigError {
  try {
    parseConfig(text, source);
  } catch (error) {
    assert.ok(error instanceof ConfigError, `expected a ConfigError, got ${error}`);
    return error;
  }
  assert.fail("expected the configuration to be rejected");
}

yamlTest("parseConfig accepts the design document's block as written", () => {
  assert.deepEqual(parseConfig(SEED), {
    shardDistribution: {
      election: {
        leaderPeriodMs: 60_000,
        maxRandomDelayMs: 1_000,
        failedElectionCooldownMs: 1_000,
      },
      namespaces: [
        {
          kind: "fixed",
          name: "my-fixed-namespace",
          shardNum: 32,
          loadBalancer: "greedy",
          ownership: { mode: "available" },
        },
        {
          kind: "ephemeral",
          name: "my-ephemeral-namespace",
          loadBalancer: "greedy",
          ownership: { mode: "available" },
        },
      ],
      // Each entry as written: what is stored and printed back.
      namespaceSpecs: [
        { name: "my-fixed-namespace", type: "fixed", shardNum: 32 },
        { name: "my-ephemeral-namespace", type: "ephemeral" },
      ],
      leaderStore: {
        storageParams: {
          endpoints: ["localhost:2379"],
          dialTimeoutMs: 1_000,
          prefix: "leader",
          electionTtlMs: 5_000,
        },
      },
      store: {
        storageParams: { endpoints: ["localhost:2379"], dialTimeoutMs: 1_000, prefix: "store" },
      },
      process: {
        periodMs: 1_000,
        heartbeatTtlMs: 2_000,
        rebalanceCooldownMs: 100,
        maxMovesPerPass: 1_000,
      },
    },
    server: {
      grpcAddress: "127.0.0.1:7943",
      httpAddress: "127.0.0.1:7944",
      dashboardActions: false,
    },
    log: { level: "info" },
    limits: limitsSchema.parse(undefined),
  });
});

yamlTest("parseConfig names the file, line and path of an invalid value", () => {
  const text = SEED.replace("shardNum: 32", 'shardNum: "abc"');
  const error = rejects(text, "config/dev.yaml");
  assert.equal(error.path, "shardDistribution.namespaces[0].shardNum");
  assert.equal(error.line, 10);
  assert.equal(error.source, "config/dev.yaml");
  assert.equal(
    error.message,
    'config/dev.yaml:10: shardDistribution.namespaces[0].shardNum: expected an integer from 1 to 10000000, got "abc"',
  );
});

yamlTest("parseConfig rejects an unknown key at the key's line", () => {
  const error = rejects(SEED.replace("heartbeatTTL:", "heartbeatTtl:"), "a.yaml");
  assert.equal(error.path, "shardDistribution.process.heartbeatTtl");
  assert.equal(error.line, 25);
  assert.match(error.message, /^a\.yaml:25: shardDistribution\.process\.heartbeatTtl: unknown key/);
  assert.match(error.message, /expected one of: period, heartbeatTTL, rebalanceCooldown/);
});

yamlTest("parseConfig lists every issue, one per line, in document order", () => {
  const text = SEED.replace("60s", "soon").replace("type: ephemeral", "type: temporary") +
    "log:\n  level: loud\n";
  const error = rejects(text);
  assert.deepEqual(error.issues.map((issue) => [issue.line, issue.path]), [
    [4, "shardDistribution.election.leaderPeriod"],
    [12, "shardDistribution.namespaces[1].type"],
    [27, "log.level"],
  ]);
  assert.equal(error.message.split("\n").length, 3);
  assert.match(error.message.split("\n")[2]!, /^line 27: log\.level: expected one of/);
});

yamlTest("parseConfig points a missing key at its parent's line", () => {
  const error = rejects(
    SEED.replace("      shardNum: 32 # Number of shards in the fixed namespace\n", ""),
  );
  assert.equal(error.path, "shardDistribution.namespaces[0].shardNum");
  assert.equal(error.line, 8);
  assert.match(error.message, /required for a fixed namespace/);
});

yamlTest("parseConfig points a cross-field issue at the offending key", () => {
  const error = rejects(SEED.replace("maxRandomDelay: 1s", "maxRandomDelay: 90s"));
  assert.equal(error.path, "shardDistribution.election.maxRandomDelay");
  assert.equal(error.line, 5);
});

yamlTest("parseConfig turns a YAML syntax error into a ConfigError with its line", () => {
  const error = rejects("log:\n  level: [info\n", "bad.yaml");
  assert.equal(error.path, "");
  assert.equal(typeof error.line, "number");
  assert.match(error.message, /^bad\.yaml:\d+: invalid YAML: /);
});

yamlTest("parseConfig rejects duplicate keys as invalid YAML", () => {
  const error = rejects("log:\n  level: info\n  level: warn\n");
  assert.equal(error.line, 3);
  assert.match(error.message, /invalid YAML/);
});

yamlTest("parseConfig rejects an empty file and a file that is not a mapping", () => {
  assert.match(rejects("# nothing\n", "e.yaml").message, /^e\.yaml: the configuration is empty$/);
  assert.match(rejects("- a\n").message, /^line 1: expected a mapping, got a list$/);
});

Deno.test("loadConfig reports a file it cannot read as a ConfigError", async () => {
  const path = "config/does-not-exist.yaml";
  await assert.rejects(loadConfig(path), (error: unknown) => {
    assert.ok(error instanceof ConfigError);
    assert.equal(error.source, path);
    assert.match(error.message, /^config\/does-not-exist\.yaml: could not read the file: /);
    assert.ok(error.cause instanceof Error);
    return true;
  });
});
