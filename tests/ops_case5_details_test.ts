/**
 * Issue 16, case 5: the details of shard drains are right. `shard undrain 9 10`
 * reports only the shards that were drained, and `shard inspect` of a drained
 * shard shows the shard and its drain instead of failing.
 */
import assert from "node:assert/strict";
import { startSmctlFixture } from "./support/smctl_fixture.ts";

type Doc = Record<string, unknown>;

Deno.test("case 5: undrain reports only shards that were drained; inspect shows a drained shard", async () => {
  await using fx = await startSmctlFixture("ops-case5");

  const drained = await fx.run(["-n", "ns", "shard", "drain", "9"]);
  assert.equal(drained.code, 0, drained.stderr);

  const inspect = await fx.run(["-n", "ns", "shard", "inspect", "9"]);
  assert.equal(inspect.code, 0, inspect.stderr);
  assert.match(inspect.stdout, /^Shard +9$/m);
  assert.match(inspect.stdout, /^Owner +none$/m);
  assert.match(inspect.stdout, /^Drain +drained by an operator/m);
  const inspectJson = JSON.parse(
    (await fx.run(["-n", "ns", "shard", "inspect", "9", "--json"])).stdout,
  ) as Doc;
  assert.equal(inspectJson.drained, true);
  assert.equal(inspectJson.shardKey, "9");
  assert.equal(inspectJson.owner, "");

  // A shard that is not drained is inspected as before.
  const owned = JSON.parse(
    (await fx.run(["-n", "ns", "shard", "inspect", "10", "--json"])).stdout,
  ) as Doc;
  assert.equal(owned.drained, undefined);
  assert.notEqual(owned.owner, "");

  const undrained = await fx.run(["-n", "ns", "shard", "undrain", "9", "10"]);
  assert.equal(undrained.code, 0, undrained.stderr);
  assert.equal(
    undrained.stdout,
    'Undrained 1 shard in namespace "ns": 9\nNot drained: 10\n',
  );
  const again = JSON.parse(
    (await fx.run(["-n", "ns", "shard", "undrain", "9", "10", "--json"])).stdout,
  ) as Doc;
  assert.deepEqual(again.undrainedShardKeys, []);
  assert.deepEqual(again.notDrainedShardKeys, ["9", "10"]);
});
