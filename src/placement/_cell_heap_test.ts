import assert from "node:assert/strict";
import { type CellLoad, placeNewTenants, placeTenant, type TenantPlacement } from "./cells.ts";
import { prng } from "./_prng.ts";

/** The obvious reference: one `placeTenant` after another, adding each tenant's load. */
function oneByOne(
  tenants: readonly string[],
  cells: readonly CellLoad[],
  drained: string[],
  pins: Map<string, string>,
  tenantLoad: number,
): Map<string, TenantPlacement> {
  const loads = cells.map((c) => ({ ...c }));
  const out = new Map<string, TenantPlacement>();
  for (const tenant of tenants) {
    if (out.has(tenant)) continue;
    const choice = placeTenant(tenant, loads, { drained, pins });
    if (!choice) continue;
    out.set(tenant, choice);
    loads.find((c) => c.id === choice.cell)!.load += tenantLoad;
  }
  return out;
}

Deno.test("placeNewTenants (a heap) places exactly as placeTenant one by one would", () => {
  const random = prng(7);
  const pick = (n: number) => Math.floor(random() * n);
  for (let run = 0; run < 300; run++) {
    const cells = Array.from({ length: 1 + pick(8) }, (_, i) => ({
      id: `c${(i * 7) % 10}${i}`,
      load: pick(3) === 0 ? 0 : pick(5) + (pick(2) ? 0.5 : 0),
    }));
    const ids = cells.map((c) => c.id);
    const drained = ids.filter(() => pick(4) === 0);
    const pins = new Map<string, string>();
    if (pick(2)) pins.set("t1", pick(4) === 0 ? "gone" : ids[pick(ids.length)]!);
    const tenants = Array.from({ length: pick(30) }, () => `t${pick(20)}`);
    const tenantLoad = [0, 1, 2.5][pick(3)]!;
    assert.deepEqual(
      placeNewTenants({ tenants, placement: new Map(), cells }, { drained, pins, tenantLoad }),
      oneByOne(tenants, cells, drained, pins, tenantLoad),
      `run ${run}`,
    );
  }
});
