import assert from "node:assert/strict";
import { reportsFrom } from "../core/shared_reports.ts";
import { StoreUnavailableError } from "../core/errors.ts";
import { fakeClock } from "../core/fake_clock.ts";
import type { ExecutorWrite } from "../core/types.ts";
import { BatchQueue } from "../streams/batch_queue.ts";
import { track } from "./_testing.ts";
import { classifyBatch, classifyWrites, type Renewals } from "./classify_writes.ts";
import type { IngestNamespace, KnownExecutor, Submission } from "./submission.ts";
import type { Heartbeat } from "./validate_heartbeat.ts";

const NOW = 100_000;
const clock = { now: () => 1_700_000_000_000, monotonic: () => NOW };

class RecordingRenewals implements Renewals {
  added: string[] = [];
  dropped: string[] = [];
  failure: unknown;
  add(namespace: string, write: ExecutorWrite): void {
    this.added.push(`${namespace}/${write.executorId}`);
  }
  drop(namespace: string, executorId: string): void {
    this.dropped.push(`${namespace}/${executorId}`);
  }
}

const recent: KnownExecutor = {
  status: "ACTIVE",
  seenAtMs: NOW - 10,
  metadata: {},
  reports: new Map(),
};
const due: KnownExecutor = { ...recent, seenAtMs: NOW - 5_000 };

function namespaceOf(known: Record<string, KnownExecutor>, recordEvery = false): IngestNamespace {
  return { executor: (id) => known[id], recordEvery };
}

function submission(
  namespace: IngestNamespace,
  over: Partial<Heartbeat> & { executorId: string },
  outcomes: unknown[] = [],
): Submission {
  return {
    heartbeat: { namespace: "ns", status: "ACTIVE", reports: new Map(), metadata: {}, ...over },
    namespace,
    resolve: (revision) => outcomes.push(revision ?? "resolved"),
    reject: (error) => outcomes.push(error),
  };
}

Deno.test("classify writes a changed executor in full and drops its queued renewal", () => {
  const renewals = new RecordingRenewals();
  const ns = namespaceOf({ e1: recent });
  const outcomes: unknown[] = [];
  const round = classifyBatch([
    submission(ns, { executorId: "e1", metadata: { zone: "a" } }, outcomes),
    submission(ns, { executorId: "new" }, outcomes),
  ], { renewals, clock });
  assert.deepEqual(round.namespaces.map((n) => n.writes.map((w) => w.executorId)), [["e1", "new"]]);
  assert.deepEqual(round.namespaces[0]?.writes[0]?.metadata, { zone: "a" });
  assert.deepEqual(renewals.dropped, ["ns/e1", "ns/new"]);
  assert.equal(round.namespaces[0]?.waiting.length, 2);
  assert.deepEqual(outcomes, [], "settled by the store sink, not here");
  assert.equal(round.heartbeats, 2);
});

Deno.test("classify judges an executor by its latest heartbeat in the batch", () => {
  const renewals = new RecordingRenewals();
  const ns = namespaceOf({ e1: recent });
  const outcomes: unknown[] = [];
  const round = classifyBatch([
    submission(ns, { executorId: "e1", metadata: { zone: "a" } }, outcomes),
    submission(ns, { executorId: "e1" }, outcomes), // back to what is recorded
  ], { renewals, clock });
  assert.deepEqual(round.namespaces, [], "nothing to write now");
  assert.deepEqual(renewals.added, ["ns/e1"], "but its liveness is renewed: it was answered");
  assert.deepEqual(outcomes, ["resolved", "resolved"]);
});

Deno.test("classify records every answered heartbeat, a recent record or not", () => {
  const renewals = new RecordingRenewals();
  const outcomes: unknown[] = [];
  classifyBatch([submission(namespaceOf({ e1: recent }), { executorId: "e1" }, outcomes)], {
    renewals,
    clock,
  });
  assert.deepEqual(renewals.added, ["ns/e1"]);
  assert.deepEqual(outcomes, ["resolved"]);
});

Deno.test("classify sends a due renewal to the refresh stage and resolves it at once", () => {
  const renewals = new RecordingRenewals();
  const outcomes: unknown[] = [];
  const ns = namespaceOf({ e1: due, e2: due });
  const round = classifyBatch([
    submission(ns, { executorId: "e1" }, outcomes),
    submission(ns, { executorId: "e2" }, outcomes),
    submission(ns, { executorId: "e1" }, outcomes),
  ], { renewals, clock });
  assert.deepEqual(renewals.added, ["ns/e1", "ns/e2"]);
  assert.deepEqual(outcomes, ["resolved", "resolved", "resolved"]);
  assert.deepEqual(round.namespaces, []);
});

Deno.test("classify refuses renewals while the store is unreachable, with the last flush's error", () => {
  const renewals = new RecordingRenewals();
  renewals.failure = new Error("flush failed");
  const outcomes: unknown[] = [];
  classifyBatch([submission(namespaceOf({ e1: due }), { executorId: "e1" }, outcomes)], {
    renewals,
    clock,
    storeReachable: () => false,
  });
  assert.ok(outcomes[0] instanceof StoreUnavailableError);
  assert.match(String((outcomes[0] as Error).cause), /flush failed/);
  assert.deepEqual(renewals.added, ["ns/e1"], "still buffered for when the store is back");
});

Deno.test("classify writes every heartbeat of an exclusive namespace in full, reports included", () => {
  const renewals = new RecordingRenewals();
  const reports = reportsFrom({ "3": { status: "READY" as const, load: 2 } });
  const round = classifyBatch([
    submission(namespaceOf({ e1: { ...recent, reports } }, true), { executorId: "e1", reports }),
  ], { renewals, clock });
  assert.deepEqual(round.namespaces[0]?.writes[0]?.reports, reports);
  assert.deepEqual(renewals.added, []);
});

Deno.test("classify keeps namespaces apart", () => {
  const renewals = new RecordingRenewals();
  const ns = namespaceOf({});
  const round = classifyBatch([
    submission(ns, { executorId: "e1" }),
    submission(ns, { executorId: "e1", namespace: "other" }),
  ], { renewals, clock });
  assert.deepEqual(round.namespaces.map((n) => [n.namespace, n.writes.length]), [
    ["ns", 1],
    ["other", 1],
  ]);
});

Deno.test("classifyWrites takes a batch only when the next stage asks, so batches form during writes", async () => {
  const time = fakeClock();
  const queue = new BatchQueue<Submission>({ maxBatch: 100 });
  const rounds = classifyWrites(queue.readable, {
    renewals: new RecordingRenewals(),
    clock: time.clock,
  });
  const sizes: number[] = [];
  let finish!: () => void;
  const writing = new Promise<void>((resolve) => finish = resolve);
  const done = track(rounds.pipeTo(
    new WritableStream({
      async write(round) {
        sizes.push(round.heartbeats);
        if (sizes.length === 1) await writing;
      },
    }),
  ));
  const ns = namespaceOf({});
  queue.push(submission(ns, { executorId: "e0" }));
  await time.settle();
  for (const id of ["e1", "e2", "e3"]) queue.push(submission(ns, { executorId: id }));
  await time.settle();
  assert.deepEqual(sizes, [1]);
  assert.equal(queue.size, 3, "not taken ahead of the write in flight");
  finish();
  queue.close();
  await time.settle();
  assert.deepEqual(sizes, [1, 3]);
  assert.ok(done.settled);
});
