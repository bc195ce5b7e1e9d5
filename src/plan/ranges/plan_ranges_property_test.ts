import assert from "node:assert/strict";
import fc from "fast-check";
import { RANGE_DEFAULTS, type RangeSettings } from "../../config/range_settings.ts";
import { keyHash } from "../../shared/key_hash.ts";
import { coverageProblem, LINE_END, SliceMap } from "../../core/slices.ts";
import { planRanges } from "./plan_ranges.ts";
import type { RangePlan, RangePlanInput, RangeSliceState } from "./types.ts";

const KEYS = Array.from({ length: 40 }, (_, i) => `k${i}`);

/** Random input: a split-up line, owners (some gone), loads and top keys inside their slices. */
const inputs: fc.Arbitrary<RangePlanInput> = fc.record({
  slices: fc.integer({ min: 1, max: 12 }),
  cuts: fc.array(fc.bigInt({ min: 1n, max: LINE_END - 1n }), { maxLength: 10 }),
  executors: fc.integer({ min: 0, max: 8 }),
  owners: fc.array(fc.array(fc.integer({ min: 0, max: 10 }), { maxLength: 3 }), { maxLength: 30 }),
  loads: fc.array(fc.integer({ min: 0, max: 1000 }), { maxLength: 30 }),
  keyLoads: fc.array(fc.integer({ min: 0, max: 3000 }), { minLength: 40, maxLength: 40 }),
  pinned: fc.array(fc.boolean(), { maxLength: 30 }),
  locked: fc.array(fc.boolean(), { maxLength: 30 }),
  ownership: fc.constantFrom("available" as const, "exclusive" as const),
  empty: fc.boolean(),
}).map((r) => {
  let map = SliceMap.initial(r.slices);
  for (const at of r.cuts) {
    const s = map.slices[map.indexOfPoint(at)]!;
    if (s.start < at) map = map.split(s.id, at);
  }
  const slices: RangeSliceState[] = map.slices.map((slice, i) => {
    const owners = [...new Set(r.owners[i] ?? [])].map((n) => `e${n}`);
    const topKeys = KEYS.filter((k) => map.indexOfKey(k) === i)
      .map((key, j) => ({ key, load: r.keyLoads[j] ?? 0 }));
    const load = (r.loads[i] ?? 0) + topKeys.reduce((sum, k) => sum + k.load, 0);
    return {
      slice,
      owners,
      load,
      topKeys,
      ...(r.pinned[i] ? { pinned: true } : {}),
      ...(r.locked[i] ? { locked: true } : {}),
    };
  });
  return {
    slices: r.empty ? [] : slices,
    nextSliceId: map.nextId,
    executors: Array.from({ length: r.executors }, (_, i) => ({ id: `e${i}`, zone: `z${i % 2}` })),
    ownership: r.ownership,
  };
});

const settingsArb: fc.Arbitrary<RangeSettings> = fc.record({
  initialSlices: fc.integer({ min: 1, max: 16 }),
  min: fc.integer({ min: 1, max: 3 }),
  span: fc.integer({ min: 0, max: 4 }),
  churnBudget: fc.integer({ min: 0, max: 6 }),
  replicas: fc.integer({ min: 1, max: 3 }),
  splitThreshold: fc.constantFrom(0.1, 0.3, 1),
  tolerance: fc.constantFrom(0, 0.1, 0.5),
}).map((r) => ({
  ...RANGE_DEFAULTS,
  initialSlices: r.initialSlices,
  slicesPerExecutor: { min: r.min, target: r.min + r.span, max: r.min + 2 * r.span },
  churnBudget: r.churnBudget,
  replicas: r.replicas,
  maxHotKeyReplicas: r.replicas + 2,
  splitThreshold: r.splitThreshold,
  mergeThreshold: r.splitThreshold / 4,
  hotKeyThreshold: r.splitThreshold / 2,
  imbalanceTolerance: r.tolerance,
}));

function ownersAt(slices: readonly RangeSliceState[], p: bigint): readonly string[] {
  return slices.find((s) => s.slice.start <= p && p < s.slice.end)!.owners;
}

/** Points worth checking: every slice edge before and after, every key, both ends. */
function points(input: RangePlanInput, plan: RangePlan): bigint[] {
  const edges = [...input.slices, ...plan.slices].flatMap((s) => [s.slice.start, s.slice.end - 1n]);
  return [...edges, ...KEYS.map(keyHash), 0n, LINE_END - 1n];
}

const covers = (r: { start: bigint; end: bigint }, p: bigint) => r.start <= p && p < r.end;

Deno.test("range plans cover the line exactly once and every key has exactly one slice", () => {
  fc.assert(
    fc.property(inputs, settingsArb, (input, settings) => {
      const plan = planRanges(input, settings);
      assert.equal(coverageProblem(plan.slices.map((s) => s.slice), plan.nextSliceId), undefined);
      const map = SliceMap.from(plan.slices.map((s) => s.slice), plan.nextSliceId);
      for (const key of KEYS) {
        const holders = plan.slices.filter((s) => covers(s.slice, keyHash(key)));
        assert.equal(holders.length, 1);
        assert.equal(holders[0], plan.slices[map.indexOfKey(key)]);
      }
    }),
    { numRuns: 400 },
  );
});

Deno.test("no key changes owner unless a move, fill or release on its range says so", () => {
  const seen = { moves: 0, splits: 0, merges: 0, movedMerges: 0, isolations: 0, releases: 0 };
  fc.assert(
    fc.property(inputs, settingsArb, (input, settings) => {
      const plan = planRanges(input, settings);
      if (input.slices.length === 0) return;
      seen.moves += plan.moves.length, seen.splits += plan.splits.length;
      seen.merges += plan.merges.length, seen.isolations += plan.isolations.length;
      seen.movedMerges += plan.merges.filter((m) => m.moved).length;
      seen.releases += plan.releases.length;
      const eligible = new Set(input.executors.map((e) => e.id));
      for (const p of points(input, plan)) {
        const before = ownersAt(input.slices, p), after = ownersAt(plan.slices, p);
        for (const o of before) {
          if (after.includes(o)) continue;
          const moved = plan.moves.some((m) => m.from === o && covers(m, p));
          const released = plan.releases.some((r) => r.owner === o && covers(r, p));
          assert.ok(moved || released, `${o} left point ${p} unexplained`);
          if (eligible.has(o) && !moved) {
            assert.ok(plan.releases.some((r) => r.owner === o && r.why === "cooled"));
          }
        }
        for (const o of after) {
          if (before.includes(o)) continue;
          const moved = plan.moves.some((m) => m.to === o && covers(m, p));
          const filled = plan.fills.some((f) => f.owner === o && covers(f, p));
          assert.ok(moved || filled, `${o} joined point ${p} unexplained`);
        }
      }
    }),
    { numRuns: 400 },
  );
  // The generated cases exercise every kind of change.
  for (const [kind, n] of Object.entries(seen)) assert.ok(n > 0, `no ${kind} in 400 runs`);
});

Deno.test("range plans keep the churn budget and give every slice distinct eligible owners", () => {
  fc.assert(
    fc.property(inputs, settingsArb, (input, settings) => {
      const plan = planRanges(input, settings);
      assert.ok(plan.moves.length <= settings.churnBudget);
      const eligible = new Set(input.executors.map((e) => e.id));
      for (const s of plan.slices) {
        assert.equal(new Set(s.owners).size, s.owners.length);
        if (eligible.size === 0) continue;
        for (const o of s.owners) assert.ok(eligible.has(o), o);
        assert.ok(s.owners.length >= 1, `slice ${s.slice.id} has no owner`);
        if (input.ownership === "exclusive") assert.equal(s.owners.length, 1);
      }
      const fixed = new Set(
        input.slices.filter((s) => s.pinned || s.locked).map((s) => s.slice.id),
      );
      for (const split of plan.splits) assert.ok(!fixed.has(split.sliceId));
      for (const merge of plan.merges) {
        assert.ok(!fixed.has(merge.sliceId) && !fixed.has(merge.absorbedId));
        // Exclusive: a range changes owner only through a handover, never by a merge.
        if (input.ownership === "exclusive") assert.equal(merge.moved, false);
      }
    }),
    { numRuns: 400 },
  );
});

Deno.test("range plans are deterministic, whatever the order executors are listed in", () => {
  fc.assert(
    fc.property(inputs, settingsArb, (input, settings) => {
      const plan = planRanges(input, settings);
      assert.deepEqual(planRanges(input, settings), plan);
      const reversed = { ...input, executors: [...input.executors].reverse() };
      assert.deepEqual(planRanges(reversed, settings), plan);
    }),
    { numRuns: 200 },
  );
});
