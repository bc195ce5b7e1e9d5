// The fast path for repeated reports (reports_memo.ts): heartbeats that carry
// their reports' wire bytes are decoded and validated only when the bytes
// change, and skipping that work never skips a change.
import assert from "node:assert/strict";
import { InvalidArgumentError } from "../core/errors.ts";
import { reportsFrom } from "../core/shared_reports.ts";
import { fakeClock } from "../core/fake_clock.ts";
import { silentLogger } from "../core/logger.ts";
import { MemoryExecutorStore, rawHeartbeat } from "./_testing.ts";
import { HeartbeatIngest } from "./heartbeat_ingest.ts";
import type { RawHeartbeat } from "./validate_heartbeat.ts";

type WireReports = RawHeartbeat["reports"];

function setup(exclusive: string[] = []) {
  const time = fakeClock(1_000_000);
  const store = new MemoryExecutorStore(time.clock);
  const ingest = new HeartbeatIngest(store, {
    namespaces: store.lookup(["ns"], exclusive),
    flushMs: 250,
    clock: time.clock,
    logger: silentLogger,
  });
  let reads = 0;
  /** A heartbeat whose reports stand for `bytes`, counting every read of them. */
  const beat = (bytes: number[], reports: WireReports): RawHeartbeat => ({
    ...rawHeartbeat("e1"),
    reportsBytes: Uint8Array.from(bytes),
    get reports() {
      reads++;
      return reports;
    },
  });
  /** The reports of every write that carried reports, in order, as plain objects. */
  const written = () =>
    store.calls.flatMap((c) =>
      c.writes.flatMap((w) => w.reports ? [Object.fromEntries(w.reports)] : [])
    );
  return { time, store, ingest, beat, reads: () => reads, written };
}

const ready = (load: number): WireReports => ({ "1": { status: "SHARD_STATUS_READY", load } });

Deno.test("unchanged report bytes are neither decoded nor validated again, and cost no write", async () => {
  const { ingest, beat, reads, written } = setup();
  await ingest.submit(beat([1], ready(1)));
  const decodes = reads();
  assert.ok(decodes > 0, "a first heartbeat is decoded");
  for (let i = 0; i < 5; i++) await ingest.submit(beat([1], ready(1)));
  assert.equal(reads(), decodes, "the same bytes are not read again");
  assert.deepEqual(written(), [{ "1": { status: "READY", load: 1 } }], "written once");
  await ingest.close();
});

Deno.test("changed bytes are read: a load change beyond the tolerance is written, one within it is not", async () => {
  const { ingest, beat, reads, written } = setup();
  await ingest.submit(beat([1], ready(1)));
  await ingest.submit(beat([2], ready(1.02))); // within 5%: a renewal
  assert.equal(written().length, 1);
  const afterSmall = reads();
  await ingest.submit(beat([2], ready(1.02)));
  assert.equal(reads(), afterSmall, "bytes equal to the last ones: not read");
  assert.equal(written().length, 1);
  await ingest.submit(beat([3], ready(2)));
  assert.deepEqual(written().at(-1), { "1": { status: "READY", load: 2 } });
  await ingest.close();
});

Deno.test("a DONE report and a newly reported shard are written at once", async () => {
  const { ingest, beat, written } = setup();
  await ingest.submit(beat([1], ready(1)));
  await ingest.submit(beat([4], { "1": { status: "SHARD_STATUS_DONE", load: 1 } }));
  assert.deepEqual(written().at(-1), { "1": { status: "DONE", load: 1 } });
  await ingest.submit(beat([5], { ...ready(1), "2": { status: "SHARD_STATUS_READY", load: 0 } }));
  assert.deepEqual(Object.keys(written().at(-1)!), ["1", "2"]);
  assert.equal(written().length, 3);
  await ingest.close();
});

Deno.test("invalid reports are refused every time, never remembered", async () => {
  const { ingest, beat, reads } = setup();
  const bad = { "1": { status: "SHARD_STATUS_READY", load: -1 } };
  await assert.rejects(ingest.submit(beat([9], bad)), InvalidArgumentError);
  const once = reads();
  await assert.rejects(ingest.submit(beat([9], bad)), /shard_load/);
  assert.ok(reads() > once, "validated again");
  await ingest.close();
});

Deno.test("exclusive namespaces still write the reports with every heartbeat", async () => {
  const { ingest, beat, reads, written } = setup(["ns"]);
  await ingest.submit(beat([1], ready(1)));
  const decodes = reads();
  await ingest.submit(beat([1], ready(1)));
  await ingest.submit(beat([1], ready(1)));
  assert.equal(reads(), decodes, "not decoded again");
  assert.deepEqual(written(), Array(3).fill({ "1": { status: "READY", load: 1 } }));
  await ingest.close();
});

Deno.test("when another write changed the record, equal bytes are compared with it again", async () => {
  const { store, ingest, beat, written } = setup();
  await ingest.submit(beat([1], ready(1)));
  // Another instance records different reports for the executor (it moved there and back).
  await store.writeExecutors("ns", [{
    executorId: "e1",
    heartbeat: { status: "ACTIVE", timestampMs: 0 },
    reports: reportsFrom({ "1": { status: "READY", load: 5 } }),
  }]);
  await ingest.submit(beat([1], ready(1)));
  assert.deepEqual(written().at(-1), { "1": { status: "READY", load: 1 } }, "set back");
  await ingest.close();
});
