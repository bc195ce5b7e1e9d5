import assert from "node:assert/strict";
import { Recorder } from "./recorder.ts";

const exit = (expected: boolean, stderrTail = "") => ({
  name: "exec-0",
  generation: 0,
  at: 500,
  expected,
  code: expected ? 0 : 134,
  signal: null,
  stderrTail,
});

Deno.test("a process's exit stops its running processors at the exit time", () => {
  const recorder = new Recorder();
  const shard = { process: "exec-0", executor: "exec-0.0", namespace: "n" };
  recorder.addLine(JSON.stringify({ type: "start", at: 10, token: "1", shard: "0", ...shard }));
  recorder.addLine(JSON.stringify({ type: "start", at: 10, token: "1", shard: "1", ...shard }));
  recorder.addLine(JSON.stringify({ type: "stop", at: 20, shard: "1", ...shard }));
  assert.equal(recorder.exited(exit(true)), undefined);
  const stops = recorder.events.filter((e) => e.type === "stop");
  assert.deepEqual(stops.map((e) => [e.shard, e.at, e.type === "stop" && e.cause]), [
    ["1", 20, undefined],
    ["0", 500, "exit"],
  ]);
  assert.deepEqual(
    recorder.unowned([{ name: "n", ownership: "available", shards: ["0"] }], new Set()),
    [
      "n/0",
    ],
  );
});

Deno.test("an unexpected exit is a crash, and the http2 GOAWAY abort is recognised", () => {
  const recorder = new Recorder();
  const crash = recorder.exited(
    exit(false, "deno: nghttp2_session.c:2402: find_stream_on_goaway_func: Assertion failed"),
  );
  assert.equal(crash?.known, "deno-http2-goaway-assertion");
  assert.equal(recorder.crashes.length, 1);
  assert.equal(recorder.exited(exit(false, "segfault"))?.known, undefined);
});

Deno.test("lines that are not events are ignored", () => {
  const recorder = new Recorder();
  recorder.addLine("not json");
  recorder.addLine(JSON.stringify({ type: "ready", process: "x" }));
  assert.deepEqual(recorder.events, []);
});

Deno.test("heartbeat and fenced-write lines are kept; other lines are ignored", () => {
  const recorder = new Recorder();
  const who = { process: "exec-0", executor: "exec-0.0", namespace: "n" };
  recorder.addLine(
    JSON.stringify({ type: "heartbeat", at: 5, sentAt: 2, ok: true, assigned: ["0"], ...who }),
  );
  recorder.addLine(
    JSON.stringify({ type: "write", at: 6, shard: "0", token: "3", count: 1, ...who }),
  );
  recorder.addLine(
    JSON.stringify({ type: "write-rejected", at: 7, shard: "0", token: "2", stored: "3", ...who }),
  );
  recorder.addLine(JSON.stringify({ type: "ready", at: 1, process: "exec-0" }));
  recorder.addLine("not json");
  assert.deepEqual(recorder.events.map((e) => e.type), ["heartbeat", "write", "write-rejected"]);
});

Deno.test("failed heartbeats an executor reports are counted apart from the events", () => {
  const recorder = new Recorder();
  const line = { type: "heartbeat-failed", process: "exec-1", executor: "exec-1.0", failures: 2 };
  recorder.addLine(JSON.stringify({ ...line, at: 40 }));
  recorder.addLine(JSON.stringify({ ...line, at: "late" })); // malformed: ignored
  assert.deepEqual(recorder.heartbeatFailures, [{ process: "exec-1", at: 40 }]);
  assert.equal(recorder.events.length, 0);
});
