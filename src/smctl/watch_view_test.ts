import assert from "node:assert/strict";
import { palette, stripAnsi } from "./colour.ts";
import type { ExecutorModel } from "./model.ts";
import { watchFrame, watchJson, watchLine, watchRows } from "./watch_view.ts";

const state = (id: string, extra: Partial<ExecutorModel> = {}): ExecutorModel => ({
  id,
  status: "ACTIVE",
  alive: true,
  heartbeatAgeMs: 100,
  lastHeartbeat: null,
  shardCount: 0,
  totalLoad: 0,
  drained: false,
  drainedBy: [],
  metadata: {},
  ...extra,
});

const picture = {
  executors: [
    { executorId: "b", shards: [{}, {}, {}, {}] },
    { executorId: "a", shards: [{}, {}] },
  ],
};

Deno.test("watchRows takes shard counts from the stream and status from the state, sorted by id", () => {
  const rows = watchRows(picture, [
    state("a"),
    state("c", { status: "DRAINING", drained: true, alive: false }),
  ]);
  assert.deepEqual(rows, [
    { id: "a", status: "ACTIVE", alive: true, drained: false, shardCount: 2 },
    { id: "b", status: null, alive: null, drained: false, shardCount: 4 },
    { id: "c", status: "DRAINING", alive: false, drained: true, shardCount: 0 },
  ]);
});

Deno.test("watchFrame shows a header, a table and bars proportional to the busiest executor", () => {
  const rows = watchRows(picture, [state("a"), state("b", { drained: true })]);
  const lines = watchFrame("ns", rows, { drawnAt: Date.UTC(2025, 0, 1), palette: palette(true) })
    .map(stripAnsi);
  assert.equal(
    lines[0],
    "namespace ns · 2 executors · 6 shards assigned · as of 2025-01-01 00:00:00Z · Ctrl-C to exit",
  );
  assert.equal(lines[1], "");
  assert.match(lines[2]!, /^EXECUTOR\s+STATUS\s+ALIVE\s+DRAINED\s+SHARDS$/);
  assert.match(lines[3]!, /^a\s+ACTIVE\s+yes\s+-\s+2\s+█{10}$/);
  assert.match(lines[4]!, /^b\s+ACTIVE\s+yes\s+yes\s+4\s+█{20}$/);
});

Deno.test("watchFrame cuts long frames and wide lines to the terminal", () => {
  const rows = Array.from({ length: 30 }, (_, i) => state(`executor-${i}`));
  const lines = watchFrame("ns", watchRows({ executors: [] }, rows), {
    drawnAt: 0,
    size: { columns: 40, rows: 10 },
    note: "reconnecting",
  });
  assert.equal(lines.length, 9);
  assert.match(lines.at(-1)!, /^… \d+ more lines$/);
  assert.ok(lines.every((l) => [...l].length <= 40), "no line wider than the terminal");
});

Deno.test("watchLine and watchJson give one record per update", () => {
  const rows = watchRows(picture, [state("a", { status: "DRAINING", drained: true }), state("b")]);
  assert.equal(
    watchLine("ns", rows, 0),
    "1970-01-01T00:00:00.000Z namespace=ns executors=2 assigned=6 a=2(DRAINING,drained) b=4",
  );
  const json = watchJson("ns", rows, 0);
  assert.equal(json.assignedShards, 6);
  assert.deepEqual(json.executors.map((e) => [e.id, e.shardCount]), [["a", 2], ["b", 4]]);
  assert.equal(JSON.stringify(json).includes("\n"), false);
});
