import assert from "node:assert/strict";
import { SliceMap } from "../core/slices.ts";
import { applySliceEdits, type SliceEdit, sliceEditProblem } from "./slice_edits.ts";

const map = SliceMap.initial(4); // ids 0..3, each a quarter of the line
const quarter = 1n << 62n;

Deno.test("slice edits: each problem is named", () => {
  const problem = (edit: SliceEdit) => sliceEditProblem(map, edit);
  assert.match(problem({ kind: "split", sliceId: 9, at: 1n, pin: true })!, /no slice 9/);
  assert.match(
    problem({ kind: "split", sliceId: 1, at: 2n * quarter, pin: true })!,
    /not inside slice 1 \[4000000000000000, 7fffffffffffffff\]/,
  );
  assert.match(problem({ kind: "merge", sliceId: 1, withId: 3, pin: true })!, /not neighbours/);
  assert.match(problem({ kind: "merge", sliceId: 1, withId: 1, pin: true })!, /itself/);
  assert.match(problem({ kind: "merge", sliceId: 1, withId: 8, pin: true })!, /no slice 8/);
  assert.equal(problem({ kind: "merge", sliceId: 2, withId: 1, pin: true }), undefined);
  assert.equal(problem({ kind: "split", sliceId: 1, at: quarter, pin: true }), undefined); // made
});

Deno.test("slice edits: a split keeps the owner's id on the left and pins both parts", () => {
  const out = applySliceEdits(map, new Set(), [{
    kind: "split",
    sliceId: 1,
    at: quarter + 7n,
    pin: true,
  }]);
  assert.deepEqual(out.map.slices.map((s) => [s.id, s.start]), [
    [0, 0n],
    [1, quarter],
    [4, quarter + 7n],
    [2, 2n * quarter],
    [3, 3n * quarter],
  ]);
  assert.deepEqual([...out.pins].sort(), [1, 4]);
  assert.deepEqual([...out.splitFrom], [[4, 1]]);
  assert.equal(out.applied, 1);
  // Unpinned on request, even when the slice was pinned.
  const loose = applySliceEdits(map, new Set(), [{
    kind: "split",
    sliceId: 1,
    at: quarter + 7n,
    pin: false,
  }]);
  assert.deepEqual([...loose.pins], []);
  const kept = applySliceEdits(map, new Set([1]), [{
    kind: "split",
    sliceId: 1,
    at: quarter + 7n,
    pin: false,
  }]);
  assert.deepEqual([...kept.pins], []);
});

Deno.test("slice edits: a merge in either order keeps the left id; pins of retired ids go", () => {
  const out = applySliceEdits(map, new Set([2, 3]), [{
    kind: "merge",
    sliceId: 2,
    withId: 1,
    pin: true,
  }]);
  assert.deepEqual(out.map.slices.map((s) => s.id), [0, 1, 3]);
  assert.deepEqual([...out.pins].sort(), [1, 3]);
  const loose = applySliceEdits(map, new Set([1, 2]), [{
    kind: "merge",
    sliceId: 2,
    withId: 1,
    pin: false,
  }]);
  assert.deepEqual([...loose.pins], [], "unpinned on request, whatever the parts were");
  assert.equal(out.map.byId(1).end, 3n * quarter);
});

Deno.test("slice edits: passed again, edits made already or no longer possible change nothing", () => {
  const edits: SliceEdit[] = [
    { kind: "split", sliceId: 0, at: 99n, pin: true },
    { kind: "pin", sliceId: 3, pinned: true },
    { kind: "merge", sliceId: 2, withId: 3, pin: false },
  ];
  const once = applySliceEdits(map, new Set(), edits);
  assert.equal(once.applied, 3);
  const again = applySliceEdits(once.map, once.pins, edits);
  assert.equal(again.applied, 0);
  assert.ok(again.map.equals(once.map));
  assert.deepEqual([...again.pins].sort(), [...once.pins].sort());
  // A pin of a slice gone meanwhile is skipped, and so is a split point outside it now.
  const gone = applySliceEdits(once.map, once.pins, [
    { kind: "pin", sliceId: 3, pinned: false },
    { kind: "split", sliceId: 0, at: quarter + 1n, pin: true },
  ]);
  assert.equal(gone.applied, 0);
});

Deno.test("slice edits: unpin", () => {
  const out = applySliceEdits(map, new Set([0, 2]), [{ kind: "pin", sliceId: 2, pinned: false }]);
  assert.deepEqual([...out.pins], [0]);
});
