import assert from "node:assert/strict";
import { RANGE_DEFAULTS, type RangeSettings } from "../../config/range_settings.ts";
import { keyHash } from "../../shared/key_hash.ts";
import { LINE_END, SliceMap } from "../../core/slices.ts";
import { planRanges } from "./plan_ranges.ts";
import type { KeyLoad, RangePlanInput, RangeSliceState } from "./types.ts";

/** Few slices per executor, so each test sees only the change it is about. */
const SETTINGS: RangeSettings = {
  ...RANGE_DEFAULTS,
  slicesPerExecutor: { min: 1, target: 2, max: 8 },
  splitThreshold: 0.6,
  mergeThreshold: 0.2,
  hotKeyThreshold: 0.5,
};

function input(
  slices: { owners: string[]; load: number; topKeys?: KeyLoad[]; pinned?: boolean }[],
  executors: string[],
  ownership: "available" | "exclusive" = "available",
): RangePlanInput {
  const map = SliceMap.initial(slices.length);
  return {
    slices: map.slices.map((slice, i): RangeSliceState => ({ slice, ...slices[i]! })),
    nextSliceId: map.nextId,
    executors: executors.map((id) => ({ id })),
    ownership,
  };
}

Deno.test("a hot slice is split at its load-weighted point and both halves keep its owner", () => {
  // Mean per executor 50: slice 0 (80) is above 0.9 × 50; its load sits on two keys.
  const keys = ["a", "b", "c", "d", "e", "f"].filter((k) => keyHash(k) < 1n << 63n).slice(0, 2);
  const topKeys = keys.map((key) => ({ key, load: 40 }));
  const plan = planRanges(
    input([{ owners: ["e1"], load: 80, topKeys }, { owners: ["e2"], load: 20 }], ["e1", "e2"]),
    { ...SETTINGS, splitThreshold: 0.9, hotKeyThreshold: 0.9, churnBudget: 0 },
  );
  assert.equal(plan.splits.length, 1);
  const [a, b] = keys.map(keyHash).sort((x, y) => (x < y ? -1 : 1)) as [bigint, bigint];
  const at = plan.splits[0]!.at;
  assert.ok(at > a && at <= b, "the point falls between the two heavy keys");
  assert.deepEqual(plan.slices.map((s) => s.owners), [["e1"], ["e1"], ["e2"]]);
  assert.deepEqual(plan.slices.map((s) => s.load), [40, 40, 20]);
  assert.equal(plan.moves.length, 0);
});

Deno.test("a hot key gets a single-key slice and more owners in an available namespace", () => {
  const topKeys = [{ key: "tenant-42", load: 300 }];
  const slices: { owners: string[]; load: number; topKeys?: KeyLoad[] }[] = [
    { owners: ["e2"], load: 100 },
    { owners: ["e3"], load: 100 },
    { owners: ["e4"], load: 100 },
  ];
  slices.splice(SliceMap.initial(4).indexOfKey("tenant-42"), 0, {
    owners: ["e1"],
    load: 400,
    topKeys,
  });
  const executors = ["e1", "e2", "e3", "e4"];
  const plan = planRanges(input(slices, executors), SETTINGS);
  const h = keyHash("tenant-42");
  const hot = plan.slices.find((s) => s.slice.start === h)!;
  assert.equal(hot.slice.end, h + 1n);
  // mean 175; 300 / (0.5 × 175) → 4 owners, capped by the 4 executors.
  assert.equal(hot.owners.length, 4);
  assert.equal(hot.owners[0], "e1", "the owner it had stays primary");
  assert.deepEqual(plan.isolations.map((i) => [i.key, i.replicas]), [["tenant-42", 4]]);
  assert.ok(plan.fills.some((f) => f.why === "hot-key"));
  const exclusive = planRanges(input(slices, executors, "exclusive"), SETTINGS);
  assert.deepEqual(exclusive.slices.find((s) => s.slice.start === h)?.owners.length, 1);
});

Deno.test("cold neighbours merge without a move when they share an owner, and within budget when not", () => {
  const slices = [
    { owners: ["e1"], load: 1 },
    { owners: ["e1"], load: 1 },
    { owners: ["e2"], load: 1 },
    { owners: ["e2"], load: 97 },
  ];
  const settings = { ...SETTINGS, slicesPerExecutor: { min: 1, target: 1, max: 8 } };
  const free = planRanges(input(slices, ["e1", "e2"]), { ...settings, churnBudget: 0 });
  assert.deepEqual(free.merges, [{ sliceId: 0, absorbedId: 1, moved: false }]);
  assert.equal(free.moves.length, 0);
  const paid = planRanges(input(slices, ["e1", "e2"]), { ...settings, churnBudget: 1 });
  assert.deepEqual(paid.merges.map((m) => m.moved), [false, true]);
  assert.equal(paid.moves.length, 1);
  assert.deepEqual(paid.slices[0]!.slice, {
    id: 0,
    start: 0n,
    end: (LINE_END / 4n) * 3n,
    generation: 2,
  });
});

Deno.test("balancing moves slices hottest to coldest, at most the churn budget", () => {
  const slices = Array.from({ length: 8 }, () => ({ owners: ["e1"], load: 10 }));
  const settings = { ...SETTINGS, splitThreshold: 100, mergeThreshold: 0.01, hotKeyThreshold: 100 };
  const one = planRanges(input(slices, ["e1", "e2"]), { ...settings, churnBudget: 1 });
  assert.equal(one.moves.length, 1);
  assert.deepEqual(one.moves.map((m) => [m.from, m.to]), [["e1", "e2"]]);
  const all = planRanges(input(slices, ["e1", "e2"]), { ...settings, churnBudget: 10 });
  assert.equal(all.moves.length, 4);
  assert.equal(all.maxOverMean, 1);
  assert.equal(all.keyspaceMoved, 0.5);
});

Deno.test("an owner that is gone is replaced without a move, and pinned slices stay", () => {
  const slices = [
    { owners: ["gone"], load: 10 },
    { owners: ["e1"], load: 80, pinned: true },
    { owners: ["e2"], load: 10 },
  ];
  const plan = planRanges(input(slices, ["e1", "e2"]), { ...SETTINGS, churnBudget: 5 });
  assert.equal(plan.moves.length, 0);
  assert.deepEqual(plan.releases.map((r) => [r.owner, r.why]), [["gone", "ineligible"]]);
  assert.deepEqual(plan.fills.map((f) => f.why), ["lost-owner"]);
  const pinned = plan.slices.find((s) => s.pinned);
  assert.deepEqual([pinned?.slice.id, pinned?.owners], [1, ["e1"]]);
  assert.equal(plan.splits.length, 0);
});

Deno.test("a new namespace gets its initial slices, spread evenly, with no move", () => {
  const plan = planRanges(
    { slices: [], nextSliceId: 0, executors: [{ id: "b" }, { id: "a" }], ownership: "available" },
    { ...SETTINGS, initialSlices: 6 },
  );
  assert.equal(plan.slices.length, 6);
  assert.equal(plan.nextSliceId, 6);
  assert.deepEqual(plan.slicesPerExecutor, { min: 3, max: 3 });
  assert.equal(plan.fills.length, 6);
  assert.equal(plan.moves.length, 0);
});

Deno.test("input that is not a slice map is refused with what is wrong", () => {
  const good = input([{ owners: ["e1"], load: 1 }, { owners: [], load: 1 }], ["e1"]);
  const gap = { ...good, slices: good.slices.slice(1) };
  assert.throws(() => planRanges(gap, SETTINGS), /Invalid range plan input: slice 1 starts at/);
  const twice = { ...good, executors: [{ id: "e1" }, { id: "e1" }] };
  assert.throws(() => planRanges(twice, SETTINGS), /executor "e1" is listed twice/);
  const bad = { ...good, slices: [{ ...good.slices[0]!, load: NaN }, good.slices[1]!] };
  assert.throws(() => planRanges(bad, SETTINGS), /slice 0 has load NaN/);
  const owners = {
    ...good,
    slices: [{ ...good.slices[0]!, owners: ["e1", "e1"] }, good.slices[1]!],
  };
  assert.throws(() => planRanges(owners, SETTINGS), /lists an owner twice/);
});

Deno.test("an executor below its own minimum of slices gets its heaviest split, without a move", () => {
  // e1 holds 1 slice, e2 holds 5; each must hold at least 3.
  const settings = {
    ...SETTINGS,
    slicesPerExecutor: { min: 3, target: 3, max: 8 },
    churnBudget: 0,
  };
  const plan = planRanges(
    input([
      { owners: ["e1"], load: 50 },
      ...Array.from({ length: 5 }, () => ({ owners: ["e2"], load: 10 })),
    ], ["e1", "e2"]),
    settings,
  );
  assert.equal(plan.moves.length, 0);
  assert.deepEqual(plan.slicesPerExecutor, { min: 3, max: 5 });
  // Only e1's slice (id 0, and its parts) was cut.
  assert.ok(
    plan.splits.every((s) => s.sliceId === 0 || s.sliceId > 5),
    plan.splits.map((s) => `${s.sliceId}:${s.reason}`).join(" "),
  );
  // And the next pass leaves it so: its cold parts are not merged below the minimum.
  const again = planRanges({
    slices: plan.slices,
    nextSliceId: plan.nextSliceId,
    executors: [{ id: "e1" }, { id: "e2" }],
    ownership: "available",
  }, { ...settings, mergeThreshold: 0.5 });
  assert.equal(again.merges.filter((m) => m.sliceId <= 0 || m.sliceId >= 6).length, 0);
  assert.ok(again.slicesPerExecutor.min >= 3);
});

Deno.test("an executor whose slices are all too heavy to move alone trades one for lighter slices of a cold executor", () => {
  // Mean 100, limit 110. e1 (115) holds 60 and 55: either alone would overload anyone.
  const slices = [
    { owners: ["e1"], load: 60 },
    { owners: ["e1"], load: 55 },
    ...[20, 20, 20, 20, 15].map((load) => ({ owners: ["e2"], load })),
    ...[20, 20, 20, 20, 10].map((load) => ({ owners: ["e3"], load })),
  ];
  const settings = { ...SETTINGS, splitThreshold: 2, mergeThreshold: 0.01, hotKeyThreshold: 2 };
  const plan = planRanges(input(slices, ["e1", "e2", "e3"]), settings);
  // The 55 goes to e3 (90), which gives back two of its 20s: e1 100, e3 105.
  assert.deepEqual(plan.moves.map((m) => `${m.from}->${m.to}`), ["e1->e3", "e3->e1", "e3->e1"]);
  const loadOf = (id: string) =>
    plan.slices.reduce((sum, s) => sum + (s.owners.includes(id) ? s.load : 0), 0);
  assert.deepEqual(["e1", "e2", "e3"].map(loadOf), [100, 95, 105]);
  assert.ok(plan.maxOverMean <= 1.1);
  // Without the budget for all three moves, nothing is traded.
  const short = planRanges(input(slices, ["e1", "e2", "e3"]), { ...settings, churnBudget: 2 });
  assert.equal(short.moves.length, 0);
});
