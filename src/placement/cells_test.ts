import assert from "node:assert/strict";
import { prng, randomBelow } from "./_fixtures.ts";
import { placeNewTenants, placeTenant } from "./cells.ts";

const cells = [{ id: "c2", load: 4 }, { id: "c1", load: 4 }, { id: "c3", load: 9 }];

Deno.test("placeTenant picks the least-loaded cell, ties to the smallest id", () => {
  assert.deepEqual(placeTenant("acme", cells), { cell: "c1", reason: "least-loaded" });
});

Deno.test("placeTenant skips drained cells and cells dedicated to pinned tenants", () => {
  assert.equal(placeTenant("acme", cells, { drained: ["c1"] })?.cell, "c2");
  const pins = new Map([["big-co", "c1"]]);
  assert.equal(placeTenant("acme", cells, { pins })?.cell, "c2");
  assert.equal(placeTenant("acme", cells, { drained: ["c1", "c2", "c3"] }), undefined);
});

Deno.test("placeTenant honours a pin, even to a drained cell, and waits for an unknown pinned cell", () => {
  const pins = new Map([["big-co", "c3"], ["new-co", "c9"]]);
  assert.deepEqual(placeTenant("big-co", cells, { pins, drained: ["c3"] }), {
    cell: "c3",
    reason: "pinned",
  });
  assert.equal(placeTenant("new-co", cells, { pins }), undefined);
});

Deno.test("placeTenant rejects bad cells", () => {
  assert.throws(() => placeTenant("t", [{ id: "c", load: -1 }]), RangeError);
  assert.throws(() => placeTenant("t", [{ id: "c", load: NaN }]), RangeError);
  assert.throws(() => placeTenant("t", [{ id: "c", load: 1 }, { id: "c", load: 2 }]), RangeError);
});

Deno.test("placeNewTenants never moves a placed tenant, whatever happened to its cell", () => {
  const placement = new Map([["a", "c3"], ["b", "gone"], ["c", "c1"]]);
  const placed = placeNewTenants({ tenants: ["a", "b", "c", "d"], placement, cells }, {
    drained: ["c3"],
    pins: new Map([["c", "c2"]]),
  });
  assert.deepEqual([...placed], [["d", { cell: "c1", reason: "least-loaded" }]]);
});

Deno.test("placeNewTenants fills the least-loaded cells as it goes, weighting new tenants", () => {
  const placed = placeNewTenants({
    tenants: ["t1", "t2", "t3", "t1"],
    placement: new Map(),
    cells: [{ id: "a", load: 0 }, { id: "b", load: 3 }],
  }, { tenantLoad: 2 });
  assert.deepEqual([...placed].map(([t, p]) => [t, p.cell]), [["t1", "a"], ["t2", "a"], [
    "t3",
    "b",
  ]]);
  assert.throws(
    () => placeNewTenants({ tenants: [], placement: new Map(), cells }, { tenantLoad: -1 }),
    RangeError,
  );
});

Deno.test("placeNewTenants property: deterministic, loads end within one tenant of each other", () => {
  const random = prng(51);
  for (let round = 0; round < 100; round++) {
    const count = 1 + randomBelow(random, 8);
    const start = Array.from({ length: count }, (_, i) => ({ id: `c${i}`, load: 0 }));
    const tenants = Array.from({ length: randomBelow(random, 100) }, (_, i) => `t${i}`);
    const placed = placeNewTenants({ tenants, placement: new Map(), cells: start });
    assert.deepEqual(placeNewTenants({ tenants, placement: new Map(), cells: start }), placed);
    const loads = start.map((cell) =>
      [...placed.values()].filter((p) => p.cell === cell.id).length
    );
    assert.ok(Math.max(...loads) - Math.min(...loads) <= 1, `${loads}`);
    assert.equal(placed.size, tenants.length);
  }
});
