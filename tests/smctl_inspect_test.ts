// deno-lint-ignore-file no-control-regex -- the tests look for ANSI escape codes
import assert from "node:assert/strict";
import { eventually } from "./support/executors.ts";
import { startSmctlFixture } from "./support/smctl_fixture.ts";
import { json, spawnSmctlInTerminal, tableRows } from "./support/smctl.ts";

const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

Deno.test("smctl inspection commands print tables and JSON from a real service", async (t) => {
  await using fx = await startSmctlFixture("smctl-inspect");

  await t.step("namespace list", async () => {
    const table = await fx.run(["namespace", "list"]);
    assert.equal(table.code, 0, table.stderr);
    assert.deepEqual(tableRows(table.stdout), [
      ["NAMESPACE", "TYPE", "MODE", "SHARDS", "SOURCE"],
      ["ns", "fixed", "onboarded", "12", "file"],
      ["eph", "ephemeral", "onboarded", "-", "file"],
    ]);
    assert.doesNotMatch(table.stdout, /\x1b\[/, "no colour when stdout is not a terminal");
    const doc = json(await fx.run(["namespace", "list", "--json"]));
    assert.deepEqual(doc, {
      namespaces: [
        { name: "ns", type: "fixed", mode: "onboarded", shardNum: 12, source: "file" },
        { name: "eph", type: "ephemeral", mode: "onboarded", shardNum: 0, source: "file" },
      ],
    });
  });

  await t.step("executor list", async () => {
    const table = await fx.run(["-n", "ns", "executor", "list"]);
    assert.equal(table.code, 0, table.stderr);
    const rows = tableRows(table.stdout);
    assert.deepEqual(rows[0], [
      "EXECUTOR",
      "STATUS",
      "ALIVE",
      "HEARTBEAT",
      "SHARDS",
      "LOAD",
      "DRAINED",
    ]);
    assert.deepEqual(rows.slice(1).map((r) => [r[0], r[1], r[2], r[6]]), [
      ["a", "ACTIVE", "yes", "-"],
      ["b", "ACTIVE", "yes", "-"],
      ["c", "ACTIVE", "yes", "-"],
    ]);
    assert.ok(rows.slice(1).every((r) => /^\d+(\.\d)?m?s ago$/.test(r[3]!)), "heartbeat ages");
    assert.equal(rows.slice(1).reduce((sum, r) => sum + Number(r[4]), 0), 12);

    const doc = json<{ namespace: string; executors: Record<string, unknown>[] }>(
      await fx.run(["-n", "ns", "executor", "list", "--json"]),
    );
    assert.equal(doc.namespace, "ns");
    assert.deepEqual(doc.executors.map((e) => e.id), ["a", "b", "c"]);
    for (const e of doc.executors) {
      assert.equal(e.status, "ACTIVE");
      assert.equal(e.alive, true);
      assert.equal(e.drained, false);
      assert.deepEqual(e.drainedBy, []);
      assert.equal(typeof e.heartbeatAgeMs, "number");
      assert.match(String(e.lastHeartbeat), ISO);
      assert.equal(typeof e.totalLoad, "number");
      assert.deepEqual(e.metadata, {
        hostname: `worker-${e.id}`,
        address: `${e.id}.example:1234`,
      });
    }
    assert.equal(doc.executors.reduce((sum, e) => sum + Number(e.shardCount), 0), 12);
  });

  await t.step("executor describe", async () => {
    const table = await fx.run(["-n", "ns", "executor", "describe", "a"]);
    assert.equal(table.code, 0, table.stderr);
    assert.match(table.stdout, /^Executor {8}a$/m);
    assert.match(table.stdout, /^Status {10}ACTIVE$/m);
    assert.match(table.stdout, /^Metadata {8}address=a\.example:1234\n {16}hostname=worker-a$/m);
    assert.match(table.stdout, /^SHARD\s+LOAD\s+REVISION\s+ASSIGNED AT\s+AGE$/m);

    const doc = json<{ executor: { id: string; shardCount: number; shards: unknown[] } }>(
      await fx.run(["-n", "ns", "executor", "describe", "a", "--json"]),
    );
    assert.equal(doc.executor.id, "a");
    assert.equal(doc.executor.shards.length, doc.executor.shardCount);
    for (const shard of doc.executor.shards as Record<string, unknown>[]) {
      assert.match(String(shard.key), /^\d+$/);
      assert.equal(typeof shard.load, "number");
      assert.ok(Number(shard.assignedRevision) > 0);
      assert.match(String(shard.assignedAt), ISO);
    }
  });

  await t.step("shard owner and shard inspect", async () => {
    const table = await fx.run(["-n", "ns", "shard", "owner", "5"]);
    assert.equal(table.code, 0, table.stderr);
    const owner = table.stdout.match(/^Owner {5}(\S+)$/m)?.[1];
    assert.ok(owner && ["a", "b", "c"].includes(owner), table.stdout);
    assert.match(table.stdout, /^Metadata {2}address=\S+\n {10}hostname=worker-/m);
    const doc = json(await fx.run(["-n", "ns", "shard", "owner", "5", "--json"]));
    assert.deepEqual(doc, {
      namespace: "ns",
      shardKey: "5",
      owner,
      metadata: { address: `${owner}.example:1234`, hostname: `worker-${owner}` },
    });

    // The owner reports load 1 for each shard once it has heard it owns it.
    let inspected: Record<string, unknown> = {};
    await eventually(
      async () => {
        inspected = json(await fx.run(["-n", "ns", "shard", "inspect", "5", "--json"]));
        return inspected.load === 1 && inspected.status === "READY";
      },
      10_000,
      "the owner's report of shard 5",
    );
    assert.equal(inspected.owner, owner);
    assert.equal(inspected.shardKey, "5");
    assert.ok(Number(inspected.assignedRevision) > 0);
    assert.match(String(inspected.assignedAt), ISO);

    const human = await fx.run(["-n", "ns", "shard", "inspect", "5"]);
    assert.equal(human.code, 0);
    assert.match(human.stdout, new RegExp(`^Owner {14}${owner}$`, "m"));
    assert.match(human.stdout, /^Load {15}1$/m);
    assert.match(human.stdout, /^Status {13}READY$/m);
    assert.match(
      human.stdout,
      new RegExp(`^Assigned revision {2}${inspected.assignedRevision}$`, "m"),
    );
    assert.match(human.stdout, /^Assigned at {8}\d{4}-\d\d-\d\d \d\d:\d\d:\d\dZ \(.+ ago\)$/m);
  });

  await t.step("leader list", async () => {
    const table = await fx.run(["leader", "list"]);
    assert.equal(table.code, 0, table.stderr);
    const rows = tableRows(table.stdout);
    assert.deepEqual(rows[0], [
      "NAMESPACE",
      "LEADER",
      "NAME",
      "GRPC",
      "HTTP",
      "TERM",
      "SINCE",
      "FOR",
    ]);
    // LEADER is the instance id, NAME its stable name (host name and gRPC port by default).
    assert.deepEqual(rows.slice(1).map((r) => [r[0], r[1]]), [["eph", "instance-1"], [
      "ns",
      "instance-1",
    ]]);
    const doc = json<{ leaders: Record<string, unknown>[] }>(
      await fx.run(["leader", "list", "--json"]),
    );
    assert.deepEqual(doc.leaders.map((l) => [l.namespace, l.instanceId]), [
      ["eph", "instance-1"],
      ["ns", "instance-1"],
    ]);
    for (const leader of doc.leaders) {
      assert.ok(Number(leader.term) > 0);
      assert.match(String(leader.since), ISO);
    }
  });

  await t.step("namespace describe", async () => {
    const table = await fx.run(["-n", "ns", "namespace", "describe"]);
    assert.equal(table.code, 0, table.stderr);
    // Labels are padded to the longest, "Mass-loss brake".
    assert.match(table.stdout, /^Namespace {8}ns$/m);
    assert.match(table.stdout, /^Type {13}fixed$/m);
    assert.match(table.stdout, /^Shards {11}12$/m);
    assert.match(table.stdout, /^Source {11}file$/m);
    assert.match(table.stdout, /^Leader {11}\S+ instance-1 at \S+ \(term \d+, since .+ ago\)$/m);
    assert.match(table.stdout, /^Mass-loss brake {2}released \(never engaged\)$/m);
    assert.match(
      table.stdout,
      /^Executors: 3 executors \(3 alive, 3 active, 0 drained\), 12 shards assigned$/m,
    );
    assert.match(table.stdout, /^Executor drains: 0$/m);
    assert.match(table.stdout, /^Drained shards: none$/m);
    assert.match(table.stdout, /^Shard moves: placement \d+, balance \d+, drain 0, loss 0 \(/m);

    const doc = json<Record<string, unknown>>(
      await fx.run(["-n", "ns", "namespace", "describe", "--json"]),
    );
    assert.deepEqual(doc.namespace, {
      name: "ns",
      type: "fixed",
      mode: "onboarded",
      shardNum: 12,
      source: "file",
    });
    assert.deepEqual(doc.summary, {
      total: 3,
      alive: 3,
      active: 3,
      drained: 0,
      assignedShards: 12,
      notRunningShards: 0,
    });
    assert.equal((doc.leader as Record<string, unknown>).instanceId, "instance-1");
    assert.equal((doc.executors as unknown[]).length, 3);
    assert.deepEqual(doc.executorDrains, []);
    assert.deepEqual(doc.drainedShards, []);
    const moves = doc.shardMoves as Record<string, number>;
    assert.ok(moves.placement! >= 12, `every shard was placed: ${JSON.stringify(moves)}`);
    assert.equal(moves.drain, 0);
  });

  await t.step("not found exits 3, invalid argument exits 2, each with one line", async () => {
    const cases: [string[], number, RegExp][] = [
      [["-n", "nope", "executor", "list"], 3, /^smctl: namespace "nope" not found\n$/],
      [["-n", "nope", "namespace", "describe"], 3, /^smctl: namespace "nope" not found\n$/],
      [
        ["-n", "ns", "shard", "inspect", "99"],
        3,
        /^smctl: shard "99" not found in namespace "ns"\n$/,
      ],
      [["-n", "ns", "executor", "describe", "zz"], 3, /^smctl: executor "zz" not found/],
      [["-n", "ns", "shard", "owner", ""], 2, /^smctl: invalid shard_key: /],
      [["-n", "nope", "namespace", "list", "--json"], 0, /^$/],
    ];
    for (const [args, code, stderr] of cases) {
      const result = await fx.run(args);
      assert.equal(result.code, code, `${args.join(" ")}: ${result.stderr}`);
      assert.match(result.stderr, stderr, args.join(" "));
      if (code !== 0) assert.equal(result.stdout, "", args.join(" "));
    }
  });

  await t.step("colour on a terminal, none with NO_COLOR", async () => {
    const args = ["--address", fx.address, "-n", "ns", "executor", "list"];
    const coloured = spawnSmctlInTerminal(args);
    const result = await coloured.finished;
    assert.equal(result.code, 0, result.stdout);
    assert.ok(result.stdout.includes("\x1b[32mACTIVE\x1b[39m"), JSON.stringify(result.stdout));
    assert.ok(result.stdout.includes("\x1b[1mEXECUTOR\x1b[22m"));
    const plain = await spawnSmctlInTerminal(args, { env: { NO_COLOR: "1" } }).finished;
    assert.equal(plain.code, 0);
    assert.doesNotMatch(plain.stdout, /\x1b\[\d+m/);
  });
});
