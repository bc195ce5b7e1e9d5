import assert from "node:assert/strict";
import { ProgressReporter, progressText } from "./progress.ts";

Deno.test("progressText shows a bar, moved of total, and a floored percentage", () => {
  assert.equal(progressText(0, 30, 10), "[░░░░░░░░░░] 0/30 shards moved off (0%)");
  assert.equal(progressText(10, 30, 10), "[███░░░░░░░] 10/30 shards moved off (33%)");
  assert.equal(progressText(30, 30, 10), "[██████████] 30/30 shards moved off (100%)");
  assert.equal(
    progressText(0, 0, 4),
    "[████] 0/0 shards moved off (100%)",
    "nothing to move is done",
  );
  assert.equal(progressText(40, 30, 4), "[████] 30/30 shards moved off (100%)", "clamped");
});

Deno.test("on a terminal every change redraws the same line", () => {
  const out: string[] = [];
  const progress = new ProgressReporter({ write: (t) => out.push(t), isTerminal: true, width: 4 });
  progress.update(0, 4);
  progress.update(0, 4);
  progress.update(2, 4);
  progress.update(4, 4);
  progress.finish();
  assert.deepEqual(out, [
    "\r[░░░░] 0/4 shards moved off (0%)\x1b[K",
    "\r[██░░] 2/4 shards moved off (50%)\x1b[K",
    "\r[████] 4/4 shards moved off (100%)\x1b[K",
    "\n",
  ]);
});

Deno.test("off a terminal lines come at most once a second, and 100% always prints", () => {
  let now = 0;
  const out: string[] = [];
  const progress = new ProgressReporter({
    write: (t) => out.push(t),
    isTerminal: false,
    now: () => now,
    width: 4,
  });
  progress.update(0, 4);
  now = 500;
  progress.update(1, 4);
  now = 1_000;
  progress.update(2, 4);
  now = 1_100;
  progress.update(4, 4);
  progress.finish();
  assert.deepEqual(out, [
    "[░░░░] 0/4 shards moved off (0%)\n",
    "[██░░] 2/4 shards moved off (50%)\n",
    "[████] 4/4 shards moved off (100%)\n",
  ]);
});
