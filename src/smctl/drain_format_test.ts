import assert from "node:assert/strict";
import {
  drainedText,
  drainTable,
  drainTarget,
  drainWaitText,
  undrainedText,
} from "./drain_format.ts";
import type { DrainModel } from "./model.ts";

const byId: DrainModel = {
  id: "id:a",
  kind: "id",
  executorId: "a",
  selector: null,
  reason: "INC-1",
  createdAt: "2025-01-01T00:00:00.000Z",
  matchedExecutorIds: ["a"],
};
const bySelector: DrainModel = {
  id: "selector:hostname=w7,zone=b",
  kind: "selector",
  executorId: null,
  selector: { zone: "b", hostname: "w7" },
  reason: "",
  createdAt: null,
  matchedExecutorIds: [],
};

Deno.test("drainTable shows id, reason, age and current matches", () => {
  assert.equal(
    drainTable([byId, bySelector], Date.parse("2025-01-01T00:02:00.000Z")),
    [
      "DRAIN                        REASON  CREATED                        MATCHES NOW",
      "id:a                         INC-1   2025-01-01 00:00:00Z (2m ago)  a",
      "selector:hostname=w7,zone=b  -       -                              none",
    ].join("\n"),
  );
  assert.equal(drainTable([], 0), "No executor drains.");
});

Deno.test("drain sentences name the target, the drain and the matches", () => {
  assert.equal(drainTarget(byId), 'executor "a"');
  assert.equal(drainTarget(bySelector), "executors matching hostname=w7,zone=b");
  assert.equal(
    drainedText("ns", byId),
    'Drained executor "a" in namespace "ns" (drain id:a, reason: INC-1); matches now: a.',
  );
  assert.equal(
    drainedText("ns", bySelector),
    'Drained executors matching hostname=w7,zone=b in namespace "ns" (drain selector:hostname=w7,zone=b); matches now: no executor yet.',
  );
  assert.equal(undrainedText("ns", byId, byId), 'Removed drain id:a in namespace "ns".');
  assert.equal(
    undrainedText("ns", bySelector, null),
    'Executors matching hostname=w7,zone=b were not drained in namespace "ns"; nothing to undo.',
  );
});

Deno.test("drainWaitText reports an empty host or what is left", () => {
  const base = { initialShards: 10, elapsedMs: 4_200, executors: ["a"] };
  assert.equal(
    drainWaitText({ ...base, completed: true, remainingShards: 0, movedShards: 10, remaining: {} }),
    "a: empty; 10 of 10 shards moved off in 4.2s.",
  );
  assert.equal(
    drainWaitText({
      ...base,
      executors: ["a", "b"],
      completed: false,
      remainingShards: 3,
      movedShards: 7,
      remaining: { a: 1, b: 2 },
    }),
    "a, b: 3 of 10 shards still held (a: 1, b: 2) after 4.2s.",
  );
});
