import { parseConfig } from "./load.ts";
import assert from "node:assert/strict";
import { issueMessage } from "./_issue_message.ts";
import { formatYamlPath } from "./_yaml_locate.ts";
import { type Config, configSchema } from "./schema.ts";

const STORE = { storageParams: { endpoints: ["localhost:2379"] } };

function minimal(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    shardDistribution: {
      namespaces: [{ name: "my-fixed-namespace", type: "fixed", shardNum: 32 }],
      leaderStore: STORE,
      store: STORE,
      ...overrides,
    },
  };
}

/** The issues of an invalid input, as `path: message`. */
function issues(input: unknown): string[] {
  const result = configSchema.safeParse(input, { error: issueMessage });
  assert.ok(!result.success, "expected the input to be rejected");
  return result.error.issues.map((issue) => `${formatYamlPath(issue.path)}: ${issue.message}`);
}

Deno.test("configSchema applies every default to a minimal configuration", () => {
  const expected: Config = {
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
    limits: {
      maxShardKeyLength: 1024,
      maxShardKeysPerRequest: 10_000,
      maxShardReportsPerHeartbeat: 10_000,
      maxMetadataBytes: 600 * 1024,
      maxReceiveMessageBytes: 4 * 1024 * 1024,
      maxEphemeralShards: 100_000,
    },
  };
  assert.deepEqual(configSchema.parse(minimal()), expected);
});

Deno.test("configSchema fills defaults into partly written sections", () => {
  const config = configSchema.parse({
    ...minimal({ election: { leaderPeriod: "30s" }, process: { maxMovesPerPass: 0 } }),
    server: {},
    log: {},
  });
  assert.deepEqual(config.shardDistribution.election, {
    leaderPeriodMs: 30_000,
    maxRandomDelayMs: 1_000,
    failedElectionCooldownMs: 1_000,
  });
  assert.equal(config.shardDistribution.process.maxMovesPerPass, 0);
  assert.equal(config.shardDistribution.process.periodMs, 1_000);
  assert.equal(config.server.grpcAddress, "127.0.0.1:7943");
  assert.equal(config.log.level, "info");
});

Deno.test("configSchema leaves shardNum out of an ephemeral namespace", () => {
  const config = configSchema.parse(minimal({ namespaces: [{ name: "e", type: "ephemeral" }] }));
  const [namespace] = config.shardDistribution.namespaces;
  assert.deepEqual(namespace, {
    kind: "ephemeral",
    name: "e",
    loadBalancer: "greedy",
    ownership: { mode: "available" },
  });
  assert.ok(!("shardNum" in namespace!));
});

Deno.test("a namespace may override maxMovesPerPass, 0 for sticky placement", () => {
  const config = configSchema.parse(minimal({
    namespaces: [{ name: "e", type: "ephemeral", maxMovesPerPass: 0 }],
  }));
  const namespace = config.shardDistribution.namespaces[0];
  assert.equal(namespace?.kind === "ephemeral" && namespace.maxMovesPerPass, 0);
  assert.throws(
    () =>
      parseConfig(
        "shardDistribution:\n  namespaces: [{ name: e, type: ephemeral, maxMovesPerPass: -1 }]\n  embedded: {}\n",
      ),
    /maxMovesPerPass/,
  );
});

Deno.test("configSchema strips slashes around store prefixes", () => {
  const store = { storageParams: { endpoints: ["http://etcd:2379"], prefix: "/sm/store/" } };
  const config = configSchema.parse(minimal({ store }));
  assert.equal(config.shardDistribution.store?.storageParams.prefix, "sm/store");
});

Deno.test("configSchema accepts the endpoint forms etcd understands", () => {
  const endpoints = ["localhost:2379", "10.0.0.1:2379", "http://etcd-0.local:2379", "[::1]:2379"];
  const config = configSchema.parse(minimal({ store: { storageParams: { endpoints } } }));
  assert.deepEqual(config.shardDistribution.store?.storageParams.endpoints, endpoints);
});

const REJECTED: ReadonlyArray<[string, Record<string, unknown>, string]> = [
  ["no namespaces", minimal({ namespaces: [] }), "shardDistribution.namespaces: must not be empty"],
  [
    "a duplicate namespace name",
    minimal({ namespaces: [{ name: "a", type: "ephemeral" }, { name: "a", type: "ephemeral" }] }),
    'shardDistribution.namespaces[1].name: duplicate namespace name "a", first used at namespaces[0]',
  ],
  [
    "a fixed namespace without shardNum",
    minimal({ namespaces: [{ name: "a", type: "fixed" }] }),
    "shardDistribution.namespaces[0].shardNum: required for a fixed namespace",
  ],
  [
    "an ephemeral namespace with shardNum",
    minimal({ namespaces: [{ name: "a", type: "ephemeral", shardNum: 4 }] }),
    "shardDistribution.namespaces[0].shardNum: must be absent for an ephemeral namespace",
  ],
  [
    "too many shards",
    minimal({ namespaces: [{ name: "a", type: "fixed", shardNum: 10_000_001 }] }),
    "shardDistribution.namespaces[0].shardNum: expected an integer from 1 to 10000000, got 10000001",
  ],
  [
    "a fractional shardNum",
    minimal({ namespaces: [{ name: "a", type: "fixed", shardNum: 1.5 }] }),
    "shardDistribution.namespaces[0].shardNum: expected an integer from 1 to 10000000, got 1.5",
  ],
  [
    "a bad namespace name",
    minimal({ namespaces: [{ name: "a/b", type: "ephemeral" }] }),
    'shardDistribution.namespaces[0].name: expected 1 to 128 letters, digits, ".", "_" or "-"',
  ],
  [
    "an unknown load balancer",
    minimal({ namespaces: [{ name: "a", type: "ephemeral", loadBalancer: "random" }] }),
    'shardDistribution.namespaces[0].loadBalancer: expected one of "naive", "greedy", got "random"',
  ],
  [
    "maxRandomDelay not shorter than leaderPeriod",
    minimal({ election: { leaderPeriod: "1s", maxRandomDelay: "1s" } }),
    "shardDistribution.election.maxRandomDelay: must be shorter than leaderPeriod (1s), got 1s",
  ],
  [
    "a zero heartbeatTTL",
    minimal({ process: { heartbeatTTL: "0s" } }),
    'shardDistribution.process.heartbeatTTL: must be greater than 0s, got "0s"',
  ],
  [
    "a zero period",
    minimal({ process: { period: 0 } }),
    "shardDistribution.process.period: must be greater than 0s, got 0",
  ],
  [
    "a negative maxMovesPerPass",
    minimal({ process: { maxMovesPerPass: -1 } }),
    "shardDistribution.process.maxMovesPerPass: expected an integer ≥ 0, got -1",
  ],
  [
    "an electionTTL below etcd's minimum lease",
    minimal({ leaderStore: { storageParams: { endpoints: ["a:1"], electionTTL: "1s" } } }),
    'shardDistribution.leaderStore.storageParams.electionTTL: must be at least 2s, got "1s"',
  ],
  [
    "an electionTTL of fractional seconds",
    minimal({ leaderStore: { storageParams: { endpoints: ["a:1"], electionTTL: "2500ms" } } }),
    'electionTTL: must be a whole number of seconds, got "2500ms"',
  ],
  [
    "an electionTTL on the main store",
    minimal({ store: { storageParams: { endpoints: ["a:1"], electionTTL: "5s" } } }),
    "shardDistribution.store.storageParams: expected one of: endpoints, dialTimeout, prefix, tls, auth",
  ],
  [
    "no endpoints",
    minimal({ store: { storageParams: { endpoints: [] } } }),
    "shardDistribution.store.storageParams.endpoints: must not be empty",
  ],
  [
    "an endpoint without a port",
    minimal({ store: { storageParams: { endpoints: ["localhost"] } } }),
    'shardDistribution.store.storageParams.endpoints[0]: expected "host:port" or "http(s)://host:port"',
  ],
  [
    "an empty prefix",
    minimal({ store: { storageParams: { endpoints: ["a:1"], prefix: "//" } } }),
    'shardDistribution.store.storageParams.prefix: must name a key prefix, got "//"',
  ],
  [
    "a missing store",
    { shardDistribution: { namespaces: [{ name: "a", type: "ephemeral" }], leaderStore: STORE } },
    "shardDistribution.store: required; expected a mapping (or configure embedded instead of etcd)",
  ],
  [
    "a duration without a unit",
    minimal({ election: { leaderPeriod: 60 } }),
    'shardDistribution.election.leaderPeriod: expected a duration such as "1s" or "250ms", got 60',
  ],
  [
    "a malformed duration",
    minimal({ election: { failedElectionCooldown: "soon" } }),
    'shardDistribution.election.failedElectionCooldown: Cannot parse duration "soon"',
  ],
  [
    "a duration too long for a timer",
    minimal({ process: { period: "600h" } }),
    'shardDistribution.process.period: must be at most 596h31m23.647s, got "600h"',
  ],
  [
    "a grpcAddress without a port",
    { ...minimal(), server: { grpcAddress: "localhost" } },
    'server.grpcAddress: expected "host:port" with a port from 0 to 65535, got "localhost"',
  ],
  [
    "an unknown log level",
    { ...minimal(), log: { level: "trace" } },
    'log.level: expected one of "debug", "info", "warn", "error", got "trace"',
  ],
  [
    "an unknown top-level key",
    { ...minimal(), logs: {} },
    ": expected one of: shardDistribution, server, log",
  ],
];

for (const [what, input, expected] of REJECTED) {
  Deno.test(`configSchema rejects ${what}`, () => {
    const found = issues(input);
    assert.ok(
      found.some((issue) => issue.includes(expected)),
      `expected an issue containing ${JSON.stringify(expected)}, got ${JSON.stringify(found)}`,
    );
  });
}

Deno.test("configSchema reports every issue, not just the first", () => {
  const found = issues({ ...minimal({ process: { period: "x", heartbeatTTL: "y" } }), log: 1 });
  assert.equal(found.length, 3);
});

Deno.test("configSchema skips the leaderPeriod check when leaderPeriod is invalid", () => {
  const found = issues(minimal({ election: { leaderPeriod: "soon", maxRandomDelay: "2s" } }));
  assert.equal(found.length, 1);
  assert.match(found[0]!, /^shardDistribution\.election\.leaderPeriod: /);
});

Deno.test("an exclusive namespace takes an ownership lease no shorter than heartbeatTTL", () => {
  const ns = (extra: Record<string, unknown>) => ({
    namespaces: [{ name: "jobs", type: "fixed", shardNum: 4, ...extra }],
  });
  const parsed = configSchema.parse(minimal(ns({ ownership: "exclusive", ownershipLease: "5s" })));
  const namespace = parsed.shardDistribution.namespaces[0]!;
  assert.deepEqual(namespace.kind === "fixed" && namespace.ownership, {
    mode: "exclusive",
    leaseMs: 5_000,
  });
  const plain = configSchema.parse(minimal(ns({ ownership: "exclusive" }))).shardDistribution
    .namespaces[0]!;
  assert.deepEqual(plain.kind === "fixed" && plain.ownership, { mode: "exclusive" });
  assert.deepEqual(issues(minimal(ns({ ownership: "exclusive", ownershipLease: "1s" }))), [
    "shardDistribution.namespaces[0].ownershipLease: must be at least process.heartbeatTTL (2s), " +
    "got 1s: executors would stop their shards while the service still counts them alive, " +
    "leaving those shards unserved",
  ]);
  assert.deepEqual(issues(minimal(ns({ ownershipLease: "5s" }))), [
    "shardDistribution.namespaces[0].ownershipLease: applies only to a namespace with ownership: exclusive",
  ]);
  assert.equal(issues(minimal(ns({ ownership: "shared" }))).length, 1);
});

Deno.test("a namespace may set its churn rules; cells refuse them", () => {
  const config = configSchema.parse(minimal({
    namespaces: [{
      name: "f",
      type: "fixed",
      shardNum: 4,
      settleWindow: "5s",
      minImprovement: 0.2,
      shardCooldown: "0s",
      coldStartWait: "30s",
    }],
  }));
  const namespace = config.shardDistribution.namespaces[0];
  assert.ok(namespace?.kind === "fixed");
  assert.equal(namespace.settleWindowMs, 5_000);
  assert.equal(namespace.minImprovement, 0.2);
  assert.equal(namespace.shardCooldownMs, 0);
  assert.equal(namespace.coldStartWaitMs, 30_000);
  const bads = [{ settleWindow: "-1s" }, { minImprovement: 2 }, { shardCooldown: "x" }, {
    coldStartWait: "soon",
  }];
  for (const bad of bads) {
    const result = configSchema.safeParse(minimal({
      namespaces: [{ name: "f", type: "fixed", shardNum: 4, ...bad }],
    }));
    assert.equal(result.success, false, JSON.stringify(bad));
  }
  const cells = configSchema.safeParse(minimal({
    namespaces: [{ name: "c", type: "ephemeral", mode: "cells", settleWindow: "1s" }],
  }));
  assert.match(cells.error?.issues[0]?.message ?? "", /never balances/);
  const coldCells = configSchema.safeParse(minimal({
    namespaces: [{ name: "c", type: "ephemeral", mode: "cells", coldStartWait: "1s" }],
  }));
  assert.deepEqual(coldCells.error?.issues[0]?.path, [
    "shardDistribution",
    "namespaces",
    0,
    "coldStartWait",
  ]);
});
