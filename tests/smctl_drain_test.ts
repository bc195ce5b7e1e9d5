import assert from "node:assert/strict";
import { eventually } from "./support/executors.ts";
import { startSmctlFixture } from "./support/smctl_fixture.ts";
import { json, tableRows } from "./support/smctl.ts";

type Doc = Record<string, unknown>;
type Executor = { id: string; drained: boolean; drainedBy: string[]; shardCount: number };

Deno.test("smctl executor drains: --wait empties a host, drains are listed and undone", async (t) => {
  // Drains two of three executors: allowed past the default budget of half.
  await using fx = await startSmctlFixture("smctl-executor-drain", {
    namespaces: [{ name: "ns", type: "fixed", shardNum: 12, maxDrainedShare: 1 }, {
      name: "eph",
      type: "ephemeral",
    }],
  });
  const [a, b] = fx.executors;
  const executors = async () =>
    json<{ executors: Executor[] }>(await fx.run(["-n", "ns", "executor", "list", "--json"]))
      .executors;

  await t.step("drain --wait shows progress up to 100% and the host ends empty", async () => {
    const before = (await executors()).find((e) => e.id === "a")!.shardCount;
    assert.ok(before > 0);
    const result = await fx.run([
      "-n",
      "ns",
      "executor",
      "drain",
      "a",
      "--reason",
      "INC-1 bad disk",
      "--wait",
      "--wait-timeout",
      "30s",
    ]);
    assert.equal(result.code, 0, result.stderr);
    assert.match(
      result.stdout,
      /^Drained executor "a" in namespace "ns" \(drain id:a, reason: INC-1 bad disk\); matches now: a\.$/m,
    );
    assert.match(result.stdout, /^a: empty; (\d+) of \1 shards moved off in .+\.$/m);
    // Progress goes to stderr, one line at a time when it is not a terminal.
    const progress = result.stderr.trimEnd().split("\n");
    assert.match(progress.at(-1)!, /^\[█+\] (\d+)\/\1 shards moved off \(100%\)$/);
    assert.ok(progress.every((l) => /shards moved off \(\d+%\)$/.test(l)), result.stderr);
    const listed = (await executors()).find((e) => e.id === "a")!;
    assert.equal(listed.shardCount, 0);
    assert.equal(listed.drained, true);
    assert.deepEqual(listed.drainedBy, ["id:a"]);
    await eventually(() => a!.shards.length === 0, 5_000, "executor a to hear it owns nothing");
    const beats = a!.beats;
    await eventually(() => a!.beats >= beats + 3, 5_000, "three more heartbeats");
    assert.deepEqual(a!.shards, [], "a drained executor gets nothing new");
  });

  await t.step("drain --wait --json: the result on stdout, progress on stderr", async () => {
    const result = await fx.run(["-n", "ns", "executor", "drain", "b", "--wait", "--json"]);
    assert.equal(result.code, 0, result.stderr);
    const doc = json<{ namespace: string; drain: Doc; wait: Doc }>(result);
    assert.equal(doc.namespace, "ns");
    assert.equal(doc.drain.id, "id:b");
    assert.equal(doc.drain.kind, "id");
    assert.equal(doc.drain.executorId, "b");
    assert.deepEqual(doc.drain.matchedExecutorIds, ["b"]);
    assert.equal(doc.wait.completed, true);
    assert.equal(doc.wait.remainingShards, 0);
    assert.equal(doc.wait.movedShards, doc.wait.initialShards);
    assert.deepEqual(doc.wait.executors, ["b"]);
    assert.match(result.stderr, /shards moved off \(100%\)\n$/);
    await eventually(() => b!.shards.length === 0, 5_000, "executor b to be empty");
  });

  await t.step("drains are listed as a table and as JSON", async () => {
    const table = await fx.run(["-n", "ns", "executor", "drains"]);
    assert.equal(table.code, 0, table.stderr);
    const rows = tableRows(table.stdout);
    assert.deepEqual(rows[0], ["DRAIN", "REASON", "CREATED", "MATCHES NOW"]);
    assert.deepEqual(rows.slice(1).map((r) => [r[0], r[1], r[3]]), [
      ["id:a", "INC-1 bad disk", "a"],
      ["id:b", "-", "b"],
    ]);
    const doc = json<{ drains: Doc[] }>(await fx.run(["-n", "ns", "executor", "drains", "--json"]));
    assert.deepEqual(doc.drains.map((d) => [d.id, d.reason, d.matchedExecutorIds]), [
      ["id:a", "INC-1 bad disk", ["a"]],
      ["id:b", "", ["b"]],
    ]);
    assert.ok(doc.drains.every((d) => typeof d.createdAt === "string"));
  });

  await t.step("draining again returns the existing drain", async () => {
    const doc = json<{ drain: Doc }>(
      await fx.run(["-n", "ns", "executor", "drain", "a", "--reason", "other", "--json"]),
    );
    assert.equal(doc.drain.reason, "INC-1 bad disk");
  });

  await t.step("undrain gives the host shards again; a second undrain says so", async () => {
    const table = await fx.run(["-n", "ns", "executor", "undrain", "a"]);
    assert.equal(table.code, 0, table.stderr);
    assert.equal(table.stdout, 'Removed drain id:a in namespace "ns".\n');
    assert.equal(table.stderr, "");
    await eventually(() => a!.shards.length > 0, 10_000, "a to get shards again");

    const again = await fx.run(["-n", "ns", "executor", "undrain", "a"]);
    assert.equal(again.code, 0);
    assert.equal(
      again.stdout,
      'Executor "a" was not drained in namespace "ns"; nothing to undo.\n',
    );
    const doc = json(await fx.run(["-n", "ns", "executor", "undrain", "a", "--json"]));
    assert.deepEqual(doc, { namespace: "ns", removed: null, stillDrainedExecutorIds: [] });

    const removed = json<{ removed: Doc }>(
      await fx.run(["-n", "ns", "executor", "undrain", "b", "--json"]),
    );
    assert.equal(removed.removed.id, "id:b");
    await eventually(() => b!.shards.length > 0, 10_000, "b to get shards again");
  });

  await t.step(
    "draining an id that is not registered warns and still stores the drain",
    async () => {
      const result = await fx.run(["-n", "ns", "executor", "drain", "ghost"]);
      assert.equal(result.code, 0);
      assert.equal(
        result.stderr,
        'smctl: warning: executor "ghost" is not registered in namespace "ns"; the drain applies when it registers\n',
      );
      assert.match(result.stdout, /matches now: no executor yet\.\n$/);
      const doc = json<{ drain: Doc }>(
        await fx.run(["-n", "ns", "executor", "drain", "ghost", "--json"]),
      );
      assert.deepEqual(doc.drain.matchedExecutorIds, []);
      assert.equal((await fx.run(["-n", "ns", "executor", "undrain", "ghost"])).code, 0);
    },
  );

  await t.step("a selector drain catches an executor that registers after it", async () => {
    const made = await fx.run([
      "-n",
      "ns",
      "executor",
      "drain",
      "--selector",
      "hostname=worker-7",
      "--reason",
      "bad rack",
    ]);
    assert.equal(made.code, 0, made.stderr);
    assert.match(made.stderr, /^smctl: warning: no executor matches hostname=worker-7 now/);
    assert.match(made.stdout, /^Drained executors matching hostname=worker-7 in namespace "ns"/);

    const [late] = fx.addExecutors(["w7"], { hostname: "worker-7", address: "w7.example:1" });
    await eventually(
      async () => {
        const w7 = (await executors()).find((e) => e.id === "w7");
        return w7 !== undefined && w7.drained;
      },
      10_000,
      "w7 to register, drained",
    );
    const w7 = (await executors()).find((e) => e.id === "w7")!;
    assert.deepEqual(w7.drainedBy, ["selector:hostname=worker-7"]);
    await eventually(() => late!.beats >= 4, 10_000, "w7 to heartbeat a few times");
    assert.deepEqual(late!.shards, [], "w7 never gets a shard");
    assert.equal(w7.shardCount, 0);

    const table = await fx.run(["-n", "ns", "executor", "list"]);
    assert.match(
      table.stdout,
      /^w7\s+ACTIVE\s+yes\s+\S+ ago\s+0\s+0\s+yes \(selector:hostname=worker-7\)$/m,
    );
    const drains = json<{ drains: Doc[] }>(
      await fx.run(["-n", "ns", "executor", "drains", "--json"]),
    );
    assert.deepEqual(drains.drains.map((d) => [d.id, d.kind, d.selector, d.matchedExecutorIds]), [
      ["selector:hostname=worker-7", "selector", { hostname: "worker-7" }, ["w7"]],
    ]);
  });

  await t.step("undrain warns about executors other drains still hold", async () => {
    assert.equal((await fx.run(["-n", "ns", "executor", "drain", "w7"])).code, 0);
    const result = await fx.run([
      "-n",
      "ns",
      "executor",
      "undrain",
      "--selector",
      "hostname=worker-7",
      "--json",
    ]);
    assert.equal(result.code, 0, result.stderr);
    assert.equal(result.stderr, "smctl: warning: still drained by other drains: w7\n");
    const doc = json<{ removed: Doc; stillDrainedExecutorIds: string[] }>(result);
    assert.equal(doc.removed.id, "selector:hostname=worker-7");
    assert.deepEqual(doc.stillDrainedExecutorIds, ["w7"]);
    const table = await fx.run(["-n", "ns", "executor", "undrain", "w7"]);
    assert.equal(table.stdout, 'Removed drain id:w7 in namespace "ns".\n');
    await eventually(() => fx.executors.at(-1)!.shards.length > 0, 10_000, "w7 to get shards");
  });
});

Deno.test("smctl shard drains: drain, list, owner refused with exit 5, inspect shows it, undrain", async () => {
  await using fx = await startSmctlFixture("smctl-shard-drain");
  const holds = (key: string) => fx.executors.some((e) => e.shards.includes(key));

  const drained = await fx.run(["-n", "ns", "shard", "drain", "3", "4"]);
  assert.equal(drained.code, 0, drained.stderr);
  assert.equal(drained.stdout, 'Drained 2 shards in namespace "ns": 3, 4\n');
  const drainedJson = json(await fx.run(["-n", "ns", "shard", "drain", "5", "--json"]));
  assert.deepEqual(drainedJson, { namespace: "ns", drainedShardKeys: ["5"] });
  await eventually(() => !holds("3") && !holds("4") && !holds("5"), 10_000, "owners to let go");

  const list = await fx.run(["-n", "ns", "shard", "drained"]);
  assert.equal(list.stdout, "DRAINED SHARD\n3\n4\n5\n");
  assert.deepEqual(json(await fx.run(["-n", "ns", "shard", "drained", "--json"])), {
    namespace: "ns",
    shardKeys: ["3", "4", "5"],
    quarantinedShardKeys: [], // drained by an operator, none quarantined
  });

  const owner = await fx.run(["-n", "ns", "shard", "owner", "3"]);
  assert.equal(owner.code, 5);
  assert.equal(owner.stdout, "");
  assert.equal(
    owner.stderr,
    'smctl: shard "3" in namespace "ns" is drained; undrain it to route to it\n',
  );
  assert.equal((await fx.run(["-n", "ns", "shard", "inspect", "3", "--json"])).code, 0);

  const undrained = await fx.run(["-n", "ns", "shard", "undrain", "3", "4"]);
  assert.equal(undrained.code, 0, undrained.stderr);
  assert.match(undrained.stdout, /^Undrained 2 shards in namespace "ns": 3, 4\n/);
  const undrainedJson = json<Doc>(await fx.run(["-n", "ns", "shard", "undrain", "5", "--json"]));
  assert.equal(undrainedJson.namespace, "ns");
  assert.deepEqual(undrainedJson.undrainedShardKeys, ["5"]);
  assert.equal(
    (await fx.run(["-n", "ns", "shard", "drained"])).stdout,
    'No drained shards in namespace "ns".\n',
  );
  await eventually(() => holds("3") && holds("4") && holds("5"), 10_000, "owners again");
  const again = await fx.run(["-n", "ns", "shard", "owner", "3", "--json"]);
  assert.equal(again.code, 0, again.stderr);

  const unknown = await fx.run(["-n", "ns", "shard", "drain", "99"]);
  assert.equal(unknown.code, 3);
  assert.match(unknown.stderr, /^smctl: shard "99" not found in namespace "ns"/);
});
