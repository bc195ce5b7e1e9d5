import { reportsFrom } from "../core/shared_reports.ts";
import assert from "node:assert/strict";
import type { ExecutorView } from "../state/namespace_state.ts";
import { classifyWrite, decideWrite, LOAD_TOLERANCE, reportsDiffer } from "./decide_write.ts";
import type { Heartbeat } from "./validate_heartbeat.ts";

const timing = { wallNow: 1_700_000_000_000 };

function heartbeat(over: Partial<Heartbeat> = {}): Heartbeat {
  return {
    namespace: "ns",
    executorId: "e1",
    status: "ACTIVE",
    metadata: { addr: "a:1" },
    reports: reportsFrom({ "0": { status: "READY", load: 100 } }),
    ...over,
  };
}

function known(over: Partial<ExecutorView> = {}): ExecutorView {
  return {
    executorId: "e1",
    status: "ACTIVE",
    lastHeartbeatMs: 0,
    seenAtMs: 9_990, // recent
    heartbeatRevision: 5,
    metadata: { addr: "a:1" },
    reports: reportsFrom({ "0": { status: "READY", load: 100 } }),
    ...over,
  };
}

Deno.test("decide write writes everything for a new executor", () => {
  const hb = heartbeat();
  assert.deepEqual(decideWrite(undefined, hb, timing), {
    executorId: "e1",
    heartbeat: { status: "ACTIVE", timestampMs: timing.wallNow },
    metadata: hb.metadata,
    reports: hb.reports,
  });
});

Deno.test("decide write always writes the liveness record, even of an unchanged heartbeat", () => {
  // Every answered heartbeat is recorded: one left out would let its executor expire early.
  assert.deepEqual(decideWrite(known(), heartbeat(), timing), {
    executorId: "e1",
    heartbeat: { status: "ACTIVE", timestampMs: timing.wallNow },
  });
});

Deno.test("decide write writes a status change at once", () => {
  const write = decideWrite(known(), heartbeat({ status: "DRAINING" }), timing);
  assert.deepEqual(write, {
    executorId: "e1",
    heartbeat: { status: "DRAINING", timestampMs: timing.wallNow },
  });
});

Deno.test("decide write writes changed metadata but not unchanged reports", () => {
  const write = decideWrite(known(), heartbeat({ metadata: { addr: "b:2" } }), timing);
  assert.deepEqual(write?.metadata, { addr: "b:2" });
  assert.equal(write?.reports, undefined);
  assert.ok(decideWrite(known(), heartbeat({ metadata: {} }), timing)?.metadata, "removed key");
});

Deno.test("decide write ignores load changes within 5% and writes larger ones", () => {
  assert.equal(LOAD_TOLERANCE, 0.05);
  const small = heartbeat({ reports: reportsFrom({ "0": { status: "READY", load: 104 } }) });
  assert.equal(decideWrite(known(), small, timing).reports, undefined);
  const large = heartbeat({ reports: reportsFrom({ "0": { status: "READY", load: 106 } }) });
  const write = decideWrite(known(), large, timing);
  assert.deepEqual(write?.reports, large.reports);
  assert.equal(write?.metadata, undefined);
});

Deno.test("reports differ on a new or missing shard, a status change, or a load beyond 5%", () => {
  const plain = { a: { status: "READY", load: 100 }, b: { status: "READY", load: 0 } } as const;
  const base = reportsFrom(plain);
  assert.equal(reportsDiffer(base, reportsFrom({ ...plain })), false);
  assert.equal(reportsDiffer(base, reportsFrom({ a: plain.a })), true, "b is gone");
  assert.equal(reportsDiffer(base, reportsFrom({ ...plain, c: plain.a })), true, "c is new");
  assert.equal(
    reportsDiffer(base, reportsFrom({ a: plain.a, c: plain.b })),
    true,
    "same size, other key",
  );
  assert.equal(
    reportsDiffer(base, reportsFrom({ ...plain, b: { status: "DONE", load: 0 } })),
    true,
  );
  assert.equal(
    reportsDiffer(base, reportsFrom({ ...plain, a: { status: "READY", load: 95 } })),
    false,
  );
  assert.equal(
    reportsDiffer(base, reportsFrom({ ...plain, a: { status: "READY", load: 94 } })),
    true,
  );
  assert.equal(
    reportsDiffer(base, reportsFrom({ ...plain, b: { status: "READY", load: 0.001 } })),
    true,
  );
  assert.equal(reportsDiffer(reportsFrom({}), reportsFrom({})), false);
});

Deno.test("classify write marks only unchanged renewals as refresh-only", () => {
  const stored = known();
  assert.equal(classifyWrite(stored, heartbeat(), timing).refreshOnly, true);
  assert.equal(classifyWrite(stored, heartbeat({ status: "DRAINING" }), timing).refreshOnly, false);
  assert.equal(
    classifyWrite(stored, heartbeat({ metadata: { addr: "other" } }), timing).refreshOnly,
    false,
  );
  assert.equal(classifyWrite(undefined, heartbeat(), timing).refreshOnly, false);
  const unknown = known({ status: "UNKNOWN", statusNumber: 7 });
  const same = heartbeat({ status: "UNKNOWN", statusNumber: 7 });
  assert.equal(classifyWrite(unknown, same, timing).refreshOnly, true);
  assert.equal(
    classifyWrite(unknown, { ...same, statusNumber: 8 }, timing).refreshOnly,
    false,
    "another unknown number is a status change",
  );
  assert.equal(classifyWrite(unknown, same, timing).write.heartbeat.statusNumber, 7);
});

Deno.test("decide write writes a changed count of failed starts", () => {
  const failing = (failedStarts: number) =>
    new Map([["1", { status: "NOT_RUNNING" as const, load: 0, failedStarts }]]);
  assert.equal(reportsDiffer(failing(1), failing(1)), false);
  assert.equal(reportsDiffer(failing(1), failing(2)), true);
  assert.equal(
    reportsDiffer(new Map([["1", { status: "NOT_RUNNING", load: 0 }]]), failing(1)),
    true,
  );
});

Deno.test("reports differ when a slice's top keys change: another key, or a load past the tolerance", () => {
  const withKeys = (topKeys: { key: string; load: number }[]) =>
    reportsFrom({ "0": { status: "READY", load: 100, topKeys } });
  const base = withKeys([{ key: "a", load: 50 }]);
  assert.equal(reportsDiffer(base, withKeys([{ key: "a", load: 50 }])), false);
  assert.equal(
    reportsDiffer(base, withKeys([{ key: "a", load: 50 * (1 + LOAD_TOLERANCE / 2) }])),
    false,
  );
  assert.equal(reportsDiffer(base, withKeys([{ key: "b", load: 50 }])), true);
  assert.equal(reportsDiffer(base, withKeys([{ key: "a", load: 80 }])), true);
  assert.equal(reportsDiffer(base, reportsFrom({ "0": { status: "READY", load: 100 } })), true);
});
