import assert from "node:assert/strict";
import { prng, randomBelow } from "./_fixtures.ts";
import { zoneQuota, ZoneTally } from "./_zones.ts";

Deno.test("zoneQuota fills zones evenly: bases within one of each other unless a zone is exhausted", () => {
  const random = prng(61);
  for (let round = 0; round < 500; round++) {
    const sizes = Int32Array.from(
      { length: 1 + randomBelow(random, 5) },
      () => 1 + randomBelow(random, 6),
    );
    const total = sizes.reduce((a, b) => a + b, 0);
    const k = 1 + randomBelow(random, total);
    const quota = zoneQuota(sizes, k);
    assert.equal(quota.base.reduce((a, b) => a + b, 0) + quota.extras, k);
    const extraZones = quota.extra.reduce((a, b) => a + b, 0);
    assert.ok(quota.extras < extraZones || quota.extras === 0);
    for (let z = 0; z < sizes.length; z++) {
      assert.ok(quota.base[z]! + quota.extra[z]! <= sizes[z]!);
      for (let y = 0; y < sizes.length; y++) {
        if (quota.base[y]! >= quota.base[z]! + 1) assert.equal(quota.base[z], sizes[z]);
      }
    }
  }
});

Deno.test("ZoneTally built greedily never gets stuck and ends valid", () => {
  const random = prng(62);
  for (let round = 0; round < 300; round++) {
    const sizes = Int32Array.from(
      { length: 1 + randomBelow(random, 5) },
      () => 1 + randomBelow(random, 4),
    );
    const total = sizes.reduce((a, b) => a + b, 0);
    const k = 1 + randomBelow(random, total);
    const tally = new ZoneTally(zoneQuota(sizes, k));
    for (let picked = 0; picked < k; picked++) {
      const open = [...sizes.keys()].filter((z) => tally.canAdd(z));
      assert.ok(open.length > 0, "stuck");
      tally.add(open[randomBelow(random, open.length)]!);
    }
    assert.ok(tally.valid);
    for (let z = 0; z < sizes.length; z++) assert.ok(!tally.isOver(z));
  }
});

Deno.test("ZoneTally flags a crowded zone as over", () => {
  const tally = new ZoneTally(zoneQuota(Int32Array.of(3, 3), 2));
  tally.add(0);
  tally.add(0);
  assert.equal(tally.valid, false);
  assert.ok(tally.isOver(0));
  assert.ok(tally.belowBase(1));
  tally.remove(0);
  tally.add(1);
  assert.ok(tally.valid);
});
