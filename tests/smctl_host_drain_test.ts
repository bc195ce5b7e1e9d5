/**
 * Issue 37: host drains as operators run them. `executor drain` takes several
 * ids, `--all-namespaces` drains a host in every namespace where it runs,
 * `--dry-run` lists the executors a selector matched without draining, a
 * refusal names the drains already in place, and undrain takes the same
 * shapes.
 */
import assert from "node:assert/strict";
import { eventually, runExecutors } from "./support/executors.ts";
import { startSmctlFixture } from "./support/smctl_fixture.ts";
import { json } from "./support/smctl.ts";

type Drains = { drains: { id: string; matchedExecutorIds: string[] }[] };

Deno.test("smctl host drains: several ids, --all-namespaces, --dry-run, refusals naming drains", async (t) => {
  await using fx = await startSmctlFixture("smctl-host-drain", {
    namespaces: [
      { name: "ns", type: "fixed", shardNum: 12, maxDrainedShare: 1 },
      { name: "other", type: "fixed", shardNum: 6 },
    ],
    executors: ["a", "b", "c", "d"],
  });
  // "a" and "b" also run in "other", with the same hostnames.
  const others = runExecutors(fx.clients, "other", ["a", "b"], {
    intervalMs: 200,
    metadata: (id) => ({ hostname: `worker-${id}` }),
  });
  try {
    await eventually(() => others.every((e) => e.shards.length > 0), 15_000, "other placed");
    const drains = async (namespace: string) =>
      json<Drains>(await fx.run(["-n", namespace, "executor", "drains", "--json"])).drains
        .map((d) => d.id);

    await t.step("--dry-run of a selector lists what it matches and drains nothing", async () => {
      const result = await fx.run([
        "-n",
        "ns",
        "executor",
        "drain",
        "--selector",
        "hostname=worker-c",
        "--dry-run",
      ]);
      assert.equal(result.code, 0, result.stderr);
      assert.match(
        result.stdout,
        /^Dry run: drain selector:hostname=worker-c would move \d+ shard/,
      );
      assert.match(result.stdout, /matches c; nothing was drained\.$/m);
      const many = await fx.run(["-n", "ns", "executor", "drain", "a", "b", "--dry-run", "--json"]);
      assert.equal(many.code, 0, many.stderr);
      const doc = json<
        { dryRun: boolean; drains: { drainId: string; matchedExecutorIds: string[] }[] }
      >(many);
      assert.equal(doc.dryRun, true);
      assert.deepEqual(doc.drains.map((d) => [d.drainId, d.matchedExecutorIds]), [
        ["id:a", ["a"]],
        ["id:b", ["b"]],
      ]);
      assert.deepEqual(await drains("ns"), []);
    });

    await t.step("several ids in one call make one drain each", async () => {
      const result = await fx.run([
        "-n",
        "ns",
        "executor",
        "drain",
        "c",
        "d",
        "--reason",
        "rack 4",
      ]);
      assert.equal(result.code, 0, result.stderr);
      assert.match(
        result.stdout,
        /^Drained executor "c" in namespace "ns" \(drain id:c, reason: rack 4\)/m,
      );
      assert.match(
        result.stdout,
        /^Drained executor "d" in namespace "ns" \(drain id:d, reason: rack 4\)/m,
      );
      assert.deepEqual(await drains("ns"), ["id:c", "id:d"]);
      const undone = await fx.run(["-n", "ns", "executor", "undrain", "c", "d", "--json"]);
      assert.equal(undone.code, 0, undone.stderr);
      assert.deepEqual(
        json<{ undrained: { removed: { id: string } }[] }>(undone).undrained.map((u) =>
          u.removed.id
        ),
        ["id:c", "id:d"],
      );
      assert.deepEqual(await drains("ns"), []);
    });

    await t.step("--all-namespaces drains a host wherever it runs, and undrains it", async () => {
      const dry = await fx.run(["executor", "drain", "a", "--all-namespaces", "--dry-run"]);
      assert.equal(dry.code, 0, dry.stderr);
      assert.match(dry.stdout, /^Dry run: drain id:a in namespace "ns" matches a\.$/m);
      assert.match(dry.stdout, /^Dry run: drain id:a in namespace "other" matches a\.$/m);
      assert.deepEqual([await drains("ns"), await drains("other")], [[], []]);

      const result = await fx.run([
        "executor",
        "drain",
        "a",
        "-A",
        "--wait",
        "--wait-timeout",
        "30s",
      ]);
      assert.equal(result.code, 0, result.stderr);
      assert.match(result.stdout, /^Drained executor "a" in namespace "ns"/m);
      assert.match(result.stdout, /^Drained executor "a" in namespace "other"/m);
      assert.match(result.stdout, /^ns: a: empty;/m);
      assert.match(result.stdout, /^other: a: empty;/m);
      assert.deepEqual([await drains("ns"), await drains("other")], [["id:a"], ["id:a"]]);

      const nowhere = await fx.run(["executor", "drain", "a", "ghost", "-A"]);
      assert.equal(nowhere.code, 3, nowhere.stderr);
      assert.match(nowhere.stderr, /executor "ghost" runs in no namespace.*nothing was changed/);

      const preview = await fx.run(["executor", "undrain", "a", "-A", "--dry-run"]);
      assert.equal(preview.code, 0, preview.stderr);
      assert.match(preview.stdout, /would remove drain id:a in namespace "ns"/);
      assert.match(preview.stdout, /would remove drain id:a in namespace "other"/);
      const undone = await fx.run(["executor", "undrain", "a", "-A"]);
      assert.equal(undone.code, 0, undone.stderr);
      assert.match(undone.stdout, /^Removed drain id:a in namespace "other"\.$/m);
      assert.deepEqual([await drains("ns"), await drains("other")], [[], []]);
    });

    await t.step(
      "a refusal names the drains already in place and what this call drained",
      async () => {
        // "other" keeps the default budget: half of its two live executors.
        assert.equal(
          (await fx.run(["-n", "other", "executor", "drain", "a", "--reason", "INC-9"])).code,
          0,
        );
        const refused = await fx.run(["-n", "other", "executor", "drain", "b"]);
        assert.equal(refused.code, 5, refused.stderr);
        assert.match(refused.stderr, /is refused/);
        assert.match(
          refused.stderr,
          /Drains in place: id:a \(since \d{4}-\d\d-\d\dT[\d:.]+Z, reason "INC-9", matches a\)/,
        );
        // In "ns" (no budget), three of four drain, and the call's refusal in "other" says so.
        const partial = await fx.run(["executor", "drain", "c", "b", "-A"]);
        assert.equal(partial.code, 5, partial.stderr);
        assert.match(partial.stderr, /Drains in place: id:a/);
        assert.match(
          partial.stderr,
          /Already drained by this command \(still in place\): id:c in ns, id:b in ns$/m,
        );
        assert.deepEqual(await drains("ns"), ["id:b", "id:c"]);
        assert.deepEqual(await drains("other"), ["id:a"]);
      },
    );
  } finally {
    await Promise.all(others.map((e) => e.stop()));
  }
});
