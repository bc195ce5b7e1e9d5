import assert from "node:assert/strict";
import { RANGE_DEFAULTS } from "../../config/range_settings.ts";
import { ZipfSimulation } from "./_zipf_simulation.ts";

// Figures for a wider run (1,000,000 keys): bench/ranges_bench.ts and docs/placement.md.
for (const s of [0.8, 1.1]) {
  Deno.test(`Zipf s=${s} on 100 executors: max/mean within 1.10 after two passes, budget kept`, () => {
    const sim = new ZipfSimulation({ keys: 20_000, s, executors: 100, settings: RANGE_DEFAULTS });
    const first = sim.pass(); // a new namespace: equal slices, no load known yet
    assert.equal(first.moves, 0);
    assert.ok(first.maxOverMean > 1.5, `skew before planning: ${first.maxOverMean}`);
    const passes = [sim.pass(), sim.pass(), sim.pass()];
    for (const p of passes) {
      assert.ok(p.moves <= RANGE_DEFAULTS.churnBudget);
      assert.ok(p.slicesPerExecutor.max <= RANGE_DEFAULTS.slicesPerExecutor.max);
      assert.ok(p.slicesPerExecutor.min >= RANGE_DEFAULTS.slicesPerExecutor.min);
    }
    assert.ok(passes[1]!.maxOverMean <= 1.1, `after two passes: ${passes[1]!.maxOverMean}`);
    assert.equal(passes[2]!.moves, 0, "a steady load moves nothing");
    assert.ok(passes[0]!.isolations > 0, "the hottest keys are isolated");
  });
}
