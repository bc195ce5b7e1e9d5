import assert from "node:assert/strict";
import { leaderLine, leaderTable } from "./leader_format.ts";
import { namespaceDescription, namespaceTable, summarizeExecutors } from "./namespace_format.ts";
import { drainedShardModel, type ExecutorModel } from "./model.ts";
import {
  drainedShardsText,
  shardChangeText,
  shardInspectText,
  shardOwnerText,
} from "./shard_format.ts";

const NOW = Date.parse("2025-01-01T01:00:00.000Z");

Deno.test("leaderTable shows each namespace's leader, or none in its place", () => {
  assert.equal(
    leaderTable([
      { namespace: "eph", instanceId: null, term: 0, since: null },
      { namespace: "ns", instanceId: "host-1", term: 12, since: "2025-01-01T00:30:00.000Z" },
    ], NOW),
    [
      "NAMESPACE  LEADER  TERM  SINCE                 FOR",
      "eph        none       -  -                       -",
      "ns         host-1    12  2025-01-01 00:30:00Z  30m",
    ].join("\n"),
  );
  assert.equal(leaderLine(undefined, NOW), "none");
});

Deno.test("namespaceTable shows a dash for ephemeral shard counts", () => {
  assert.equal(
    namespaceTable([
      { name: "ns", type: "fixed", mode: "onboarded", shardNum: 12 },
      { name: "eph", type: "ephemeral", mode: "onboarded", shardNum: 0 },
    ]),
    [
      "NAMESPACE  TYPE       MODE       SHARDS",
      "ns         fixed      onboarded      12",
      "eph        ephemeral  onboarded       -",
    ].join("\n"),
  );
});

const executor = (id: string, extra: Partial<ExecutorModel> = {}): ExecutorModel => ({
  id,
  status: "ACTIVE",
  alive: true,
  heartbeatAgeMs: 100,
  lastHeartbeat: null,
  shardCount: 4,
  totalLoad: 4,
  drained: false,
  drainedBy: [],
  metadata: {},
  ...extra,
});

Deno.test("namespaceDescription puts config, leader, executors, drains and drained shards together", () => {
  const executors = [
    executor("a"),
    executor("b", { alive: false, status: "DRAINING", drained: true, shardCount: 0 }),
  ];
  assert.deepEqual(summarizeExecutors(executors), {
    total: 2,
    alive: 1,
    active: 1,
    drained: 1,
    assignedShards: 4,
    notRunningShards: 0,
  });
  const text = namespaceDescription({
    config: { name: "eph", type: "ephemeral", mode: "onboarded", shardNum: 0 },
    leader: { namespace: "eph", instanceId: "host-1", term: 3, since: "2025-01-01T00:59:00.000Z" },
    executors,
    drains: [],
    drainedShards: ["x", "y"],
  }, NOW);
  const lines = text.split("\n");
  assert.deepEqual(lines.slice(0, 5), [
    "Namespace  eph",
    "Type       ephemeral",
    "Mode       onboarded",
    "Shards     created on demand",
    "Leader     host-1 (term 3, since 2025-01-01 00:59:00Z, 1m ago)",
  ]);
  assert.ok(
    lines.includes("Executors: 2 executors (1 alive, 1 active, 1 drained), 4 shards assigned"),
  );
  assert.ok(lines.includes("Executor drains: 0"));
  assert.equal(lines.at(-1), "Drained shards: x, y");
});

Deno.test("shard texts", () => {
  assert.equal(
    shardOwnerText({ shardKey: "7", owner: "a", metadata: { zone: "b", addr: "a:1" } }),
    "Shard     7\nOwner     a\nMetadata  addr=a:1\n          zone=b",
  );
  assert.equal(
    shardInspectText({
      namespace: "ns",
      shardKey: "7",
      owner: "a",
      metadata: {},
      load: 0.25,
      status: null,
      assignedRevision: 41,
      assignedAt: "2025-01-01T00:59:30.000Z",
    }, NOW),
    [
      "Shard              7",
      "Namespace          ns",
      "Owner              a",
      "Load               0.25",
      "Status             not reported",
      "Assigned revision  41",
      "Assigned at        2025-01-01 00:59:30Z (30s ago)",
      "Owner metadata     -",
    ].join("\n"),
  );
  assert.equal(shardChangeText("Drained", "ns", ["3"]), 'Drained 1 shard in namespace "ns": 3');
  assert.equal(shardChangeText("Undrained", "ns", []), 'Undrained 0 shards in namespace "ns"');
  assert.equal(drainedShardsText("ns", ["3", "4"]), "DRAINED SHARD\n3\n4");
});

Deno.test("namespaceDescription and shard inspect say which owned shards do not run", () => {
  const executors = [executor("a", { notRunningShards: 2 }), executor("b")];
  const text = namespaceDescription({
    config: { name: "jobs", type: "fixed", mode: "onboarded", shardNum: 4 },
    leader: undefined,
    executors,
    drains: [],
    drainedShards: [],
  }, NOW);
  assert.ok(
    text.includes(
      "Executors: 2 executors (2 alive, 2 active, 0 drained), 8 shards assigned, 2 NOT RUNNING",
    ),
    text,
  );
  const lines = shardInspectText({
    namespace: "jobs",
    shardKey: "3",
    owner: "a",
    metadata: {},
    load: 0,
    status: null,
    assignedRevision: 41,
    assignedAt: null,
    notRunning: true,
  }, NOW).split("\n");
  assert.equal(
    lines[4],
    "Status             NOT RUNNING: owned, and its owner does not run it (not reported)",
  );
});

Deno.test("shard inspect of a quarantined shard says it is a poison shard, not an operator's drain", () => {
  const quarantined = shardInspectText(drainedShardModel("ns", "9", true), 0);
  assert.match(quarantined, /Drain +quarantined: a poison shard/);
  const drained = shardInspectText(drainedShardModel("ns", "9"), 0);
  assert.match(drained, /Drain +drained by an operator/);
});
