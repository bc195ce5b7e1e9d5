import assert from "node:assert/strict";
import { executorDetail, executorTable } from "./executor_format.ts";
import type { ExecutorDetailModel } from "./model.ts";

const a: ExecutorDetailModel = {
  id: "a",
  status: "ACTIVE",
  alive: true,
  heartbeatAgeMs: 250,
  lastHeartbeat: "2025-01-01T00:00:00.000Z",
  shardCount: 2,
  totalLoad: 3.5,
  drained: false,
  drainedBy: [],
  metadata: { zone: "b", address: "a:1" },
  shards: [
    { key: "1", load: 1, assignedRevision: 7, assignedAt: "2025-01-01T00:00:00.000Z" },
    { key: "22", load: 2.5, assignedRevision: 12, assignedAt: null },
  ],
};

Deno.test("executorTable aligns one row per executor", () => {
  const text = executorTable([a, {
    ...a,
    id: "worker-2",
    status: "DRAINING",
    alive: false,
    heartbeatAgeMs: 65_000,
    shardCount: 0,
    totalLoad: 0,
    drained: true,
    drainedBy: ["id:worker-2"],
  }]);
  assert.equal(
    text,
    [
      "EXECUTOR  STATUS    ALIVE  HEARTBEAT  SHARDS  LOAD  DRAINED",
      "a         ACTIVE    yes    250ms ago       2   3.5  -",
      "worker-2  DRAINING  no      1m5s ago       0     0  yes (id:worker-2)",
    ].join("\n"),
  );
  assert.equal(executorTable([]), "No executors.");
});

Deno.test("executorDetail lists the fields, the metadata and the shards", () => {
  const text = executorDetail(a, Date.parse("2025-01-01T00:01:00.000Z"));
  assert.equal(
    text,
    [
      "Executor        a",
      "Status          ACTIVE",
      "Alive           yes",
      "Last heartbeat  2025-01-01 00:00:00Z (250ms ago)",
      "Drained         -",
      "Shards          2",
      "Total load      3.5",
      "Metadata        address=a:1",
      "                zone=b",
      "",
      "SHARD  LOAD  REVISION  ASSIGNED AT              AGE",
      "1         1         7  2025-01-01 00:00:00Z  1m ago",
      "22      2.5        12  -                          -",
    ].join("\n"),
  );
  assert.match(executorDetail({ ...a, shards: [] }, 0), /\n\nNo shards assigned\.$/);
});

Deno.test("executors owning shards they do not run get a NOT RUNNING column and a RUNNING column", () => {
  const stopped: ExecutorDetailModel = {
    ...a,
    notRunningShards: 1,
    shards: [a.shards[0]!, { ...a.shards[1]!, notRunning: true }],
  };
  assert.equal(
    executorTable([a, stopped]).split("\n")[0],
    "EXECUTOR  STATUS  ALIVE  HEARTBEAT  SHARDS  NOT RUNNING  LOAD  DRAINED",
  );
  assert.equal(
    executorTable([a, stopped]).split("\n")[2],
    "a         ACTIVE  yes    250ms ago       2            1   3.5  -",
  );
  const detail = executorDetail(stopped, Date.parse("2025-01-01T00:01:00.000Z")).split("\n");
  assert.ok(detail.includes("Not running     1"));
  assert.equal(detail.at(-3), "SHARD  LOAD  REVISION  ASSIGNED AT              AGE  RUNNING");
  assert.equal(detail.at(-1), "22      2.5        12  -                          -  no");
});
