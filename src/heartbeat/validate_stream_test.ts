import assert from "node:assert/strict";
import { type InvalidArgumentError, NamespaceNotFoundError } from "../core/errors.ts";
import { DEFAULT_REQUEST_LIMITS } from "../limits/request_limits.ts";
import { MemoryExecutorStore, rawHeartbeat } from "./_testing.ts";
import type { RawSubmission, Submission } from "./submission.ts";
import type { RawHeartbeat } from "./validate_heartbeat.ts";
import { ValidateStream } from "./validate_stream.ts";

function submissions(raws: RawHeartbeat[], outcomes: Map<string, unknown>): RawSubmission[] {
  return raws.map((raw) => ({
    raw,
    resolve: () => outcomes.set(raw.executorId, "resolved"),
    reject: (error) => outcomes.set(raw.executorId, error),
  }));
}

Deno.test("validate stream passes valid heartbeats on in order, with their namespace", async () => {
  const store = new MemoryExecutorStore({ now: () => 0, monotonic: () => 0 });
  const outcomes = new Map<string, unknown>();
  const input = submissions([
    rawHeartbeat("e1"),
    rawHeartbeat("e2", { namespace: "x", status: "DRAINING" }),
    rawHeartbeat("e3", { metadata: { zone: "a" } }),
  ], outcomes);
  const out: Submission[] = await Array.fromAsync(
    ReadableStream.from(input).pipeThrough(new ValidateStream(store.lookup(["ns", "x"], ["x"]))),
  );
  assert.deepEqual(out.map((s) => [s.heartbeat.executorId, s.heartbeat.status]), [
    ["e1", "ACTIVE"],
    ["e2", "DRAINING"],
    ["e3", "ACTIVE"],
  ]);
  assert.deepEqual(out.map((s) => s.namespace.recordEvery), [false, true, false]);
  assert.equal(outcomes.size, 0, "nothing settled: later stages do that");
});

Deno.test("validate stream rejects invalid heartbeats at once and drops them", async () => {
  const store = new MemoryExecutorStore({ now: () => 0, monotonic: () => 0 });
  const outcomes = new Map<string, unknown>();
  const input = submissions([
    rawHeartbeat("bad-ns", { namespace: "" }),
    rawHeartbeat("unknown-ns", { namespace: "elsewhere" }),
    rawHeartbeat("bad-load", { reports: { "1": { status: "READY", load: -1 } } }),
    rawHeartbeat("too-many", {
      reports: { a: { status: "READY", load: 1 }, b: { status: "READY", load: 1 } },
    }),
    rawHeartbeat("ok"),
  ], outcomes);
  const limits = { ...DEFAULT_REQUEST_LIMITS, maxShardReportsPerHeartbeat: 1 };
  const out = await Array.fromAsync(
    ReadableStream.from(input).pipeThrough(new ValidateStream(store.lookup(["ns"]), { limits })),
  );
  assert.deepEqual(out.map((s) => s.heartbeat.executorId), ["ok"]);
  const field = (id: string) => (outcomes.get(id) as InvalidArgumentError).field;
  assert.equal(field("bad-ns"), "namespace");
  assert.ok(outcomes.get("unknown-ns") instanceof NamespaceNotFoundError);
  assert.equal(field("bad-load"), 'shard_status_reports["1"].shard_load');
  assert.equal(field("too-many"), "shard_status_reports", "the limits given are applied");
});

Deno.test("the namespace hears every valid heartbeat before it goes on to be recorded", async () => {
  const heard: string[] = [];
  const ns = {
    executor: () => undefined,
    recordEvery: true,
    heard: (hb: { executorId: string; reports: ReadonlyMap<string, { status: string }> }) =>
      heard.push(`${hb.executorId}:${hb.reports.get("1")?.status}`),
  };
  const pending = (executorId: string, status: string) => ({
    raw: {
      namespace: "ns",
      executorId,
      status: "ACTIVE",
      reports: { "1": { status, load: 0 } },
      metadata: {},
    },
    resolve: () => {},
    reject: () => {},
  });
  const stream = ReadableStream.from([
    pending("e1", "SHARD_STATUS_NOT_RUNNING"),
    pending("", "SHARD_STATUS_READY"), // invalid: never heard
  ]).pipeThrough(new ValidateStream(() => ns));
  const reader = stream.getReader();
  await reader.read();
  assert.deepEqual(heard, ["e1:NOT_RUNNING"], "heard before the next stage took it");
  await reader.cancel();
});
