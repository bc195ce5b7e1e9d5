import assert from "node:assert/strict";
import type {
  HeartbeatRequest__Output,
  HeartbeatResponse__Output,
  HeartbeatTransport,
} from "../../src/client/executor/mod.ts";
import { recordingTransport } from "./child_records.ts";

const request = (status = "EXECUTOR_STATUS_ACTIVE") =>
  ({
    namespace: "n",
    executorId: "e.0",
    status,
    shardStatusReports: {},
    metadata: {},
  }) as unknown as HeartbeatRequest__Output;
const options = { signal: new AbortController().signal, timeoutMs: 1_000 };
const sender = { process: "e", executor: "e.0", namespace: "n" };

Deno.test("each heartbeat is recorded with its send time and outcome", async () => {
  const lines: Record<string, unknown>[] = [];
  let fail = false;
  const inner: HeartbeatTransport = {
    heartbeat: () =>
      fail ? Promise.reject(new Error("UNAVAILABLE: no instance")) : Promise.resolve({
        shardAssignments: {
          "0": { status: "ASSIGNMENT_STATUS_READY", fencingToken: "5" },
          "1": { status: "ASSIGNMENT_STATUS_RELEASING", fencingToken: "4" },
          "2": { status: "ASSIGNMENT_STATUS_PREPARING", fencingToken: "6" },
        },
        quarantinedShards: ["9"],
      } as unknown as HeartbeatResponse__Output),
    close: () => {},
  };
  const transport = recordingTransport(inner, sender, (line) => lines.push(line));
  assert.equal(transport.watchAssignment, undefined, "no stream where the inner has none");
  await transport.heartbeat(request(), options);
  fail = true;
  await assert.rejects(() => transport.heartbeat(request("EXECUTOR_STATUS_DRAINING"), options));
  const [answered, failed] = lines;
  assert.equal(answered!.type, "heartbeat");
  assert.equal(answered!.ok, true);
  assert.equal(typeof answered!.sentAt, "number");
  assert.deepEqual(answered!.assigned, ["0"]);
  assert.deepEqual(answered!.releasing, ["1"]);
  assert.deepEqual(answered!.quarantined, ["9"]);
  assert.equal(answered!.status, undefined);
  assert.equal(failed!.ok, false);
  assert.equal(failed!.status, "DRAINING");
  assert.match(String(failed!.error), /UNAVAILABLE/);
});
