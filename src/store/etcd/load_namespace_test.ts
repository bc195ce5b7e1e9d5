import assert from "node:assert/strict";
import { reportsFrom } from "../../core/shared_reports.ts";
import { Buffer } from "node:buffer";
import type { IKeyValue } from "etcd3";
import {
  encodeDelta,
  encodeHeartbeat,
  encodeOwners,
  encodePartsPointer,
  splitParts,
} from "./codec.ts";
import { NamespaceKeys } from "./keys.ts";
import { encodeLeaderValue } from "./leader_value.ts";
import { decodeNamespace } from "./load_namespace.ts";

const keys = new NamespaceKeys("sm", "orders");

function kv(key: string, value: string, modRevision: number): IKeyValue {
  return {
    key: Buffer.from(key),
    value: Buffer.from(value),
    create_revision: "1",
    mod_revision: String(modRevision),
    version: "1",
    lease: "0",
  };
}

/** A namespace compacted at seq 3 (snapshot in two parts), then changes 4 (inline) and 5 (in parts). */
function history(): IKeyValue[] {
  const snapshot = encodeOwners({
    owners: new Map([["0", "a"], ["1", "a"], ["2", "pod/b"], ["3", "pod/b"]]),
    revisions: new Map([["0", 14], ["1", 14], ["2", 16], ["3", 16]]),
    times: new Map([[14, 1_400], [16, 1_600]]),
  });
  const [s0, s1] = splitParts(snapshot, Math.ceil(snapshot.length / 2));
  const change5 = encodeDelta({ assign: { c: ["2"] }, unassign: [], remove: ["3"], atMs: 2_700 });
  const [p0, p1] = splitParts(change5, Math.ceil(change5.length / 2));
  return [
    kv(keys.leader, encodeLeaderValue({ term: 4, instanceId: "i-1", sinceMs: 10 }), 18),
    kv(
      keys.executor("a", "heartbeat"),
      encodeHeartbeat({ status: "ACTIVE", timestampMs: 100 }),
      30,
    ),
    kv(keys.executor("a", "metadata"), '{"addr":"a:1"}', 12),
    kv(keys.executor("a", "reports"), '{"0":["READY",2],"1":["DONE",0]}', 31),
    kv(
      keys.executor("pod/b", "heartbeat"),
      encodeHeartbeat({ status: "DRAINING", timestampMs: 90 }),
      29,
    ),
    kv(keys.executor("c", "metadata"), "{}", 5),
    kv(keys.head, "5", 27),
    // Change 2 was folded into the snapshot; a stale leftover must not be replayed.
    kv(keys.logEntry(2), encodeDelta({ assign: { z: ["0"] }, unassign: [], remove: [] }), 15),
    kv(
      keys.logEntry(4),
      encodeDelta({ assign: { "pod/b": ["5"] }, unassign: ["1"], remove: [] }),
      25,
    ),
    kv(keys.logEntry(5), encodePartsPointer(2), 27),
    kv(`${keys.parts(5)}0`, p0!, 27),
    kv(`${keys.parts(5)}1`, p1!, 27),
    kv(keys.snapshot, encodePartsPointer(2, 3), 20),
    kv(`${keys.snapshotParts(3)}0`, s0!, 20),
    kv(`${keys.snapshotParts(3)}1`, s1!, 20),
    kv(`${keys.drained}d/1`, "", 21),
    kv(
      keys.executorDrain("selector:host=w/7"),
      JSON.stringify({
        id: "selector:host=w/7",
        selector: { host: "w/7" },
        reason: "",
        createdAtMs: 3,
      }),
      22,
    ),
    kv(`${keys.requests}r/1`, "", 28),
    kv(`${keys.root}future/kind`, "ignored", 29),
  ];
}

Deno.test("decode namespace applies the snapshot and then the later log entries", () => {
  const snap = decodeNamespace(keys, 40, history());
  assert.equal(snap.revision, 40);
  assert.equal(snap.assignmentSeq, 5);
  assert.deepEqual(
    [...snap.owners].sort(),
    [["0", "a"], ["2", "c"], ["5", "pod/b"]],
  );
  assert.deepEqual(
    [...snap.assignedRevisions].sort(),
    [["0", 14], ["2", 27], ["5", 25]],
    "snapshot shards keep the revision stored with them, later ones their change's",
  );
  assert.deepEqual(
    [...snap.assignmentTimes],
    [[14, 1_400], [27, 2_700]],
    "times of revisions still held",
  );
});

Deno.test("decode namespace reads executors, drained shards, requests and the leader", () => {
  const snap = decodeNamespace(keys, 40, history());
  assert.deepEqual(snap.executors.get("a"), {
    executorId: "a",
    heartbeat: { status: "ACTIVE", timestampMs: 100 },
    heartbeatRevision: 30,
    metadata: { addr: "a:1" },
    reports: reportsFrom({ "0": { status: "READY", load: 2 }, "1": { status: "DONE", load: 0 } }),
  });
  assert.deepEqual(snap.executors.get("pod/b")?.heartbeat, { status: "DRAINING", timestampMs: 90 });
  assert.equal(snap.executors.get("pod/b")?.heartbeatRevision, 29);
  const c = snap.executors.get("c");
  assert.equal(c?.heartbeat, undefined, "metadata alone makes no liveness record");
  assert.equal(c?.heartbeatRevision, 0);
  assert.deepEqual([...snap.executors.keys()].sort(), ["a", "c", "pod/b"]);
  assert.deepEqual([...snap.drained], ["d/1"]);
  assert.deepEqual([...snap.executorDrains], [["selector:host=w/7", {
    id: "selector:host=w/7",
    selector: { host: "w/7" },
    reason: "",
    createdAtMs: 3,
  }]]);
  assert.deepEqual([...snap.requested], [["r/1", 28]]);
  assert.deepEqual(snap.leader, {
    claim: { term: 4, instanceId: "i-1", sinceMs: 10 },
    revision: 18,
  });
});

Deno.test("decode namespace without a snapshot replays the whole log in sequence order", () => {
  const log = [
    kv(keys.logEntry(10), encodeDelta({ assign: { b: ["x"] }, unassign: [], remove: [] }), 9),
    kv(keys.logEntry(2), encodeDelta({ assign: { a: ["x", "y"] }, unassign: [], remove: [] }), 3),
  ];
  const snap = decodeNamespace(keys, 9, log);
  assert.deepEqual([...snap.owners].sort(), [["x", "b"], ["y", "a"]]);
  assert.deepEqual([...snap.assignedRevisions].sort(), [["x", 9], ["y", 3]]);
  assert.equal(snap.assignmentSeq, 0, "no head key written");
});

Deno.test("decode namespace of an empty namespace is empty", () => {
  const snap = decodeNamespace(keys, 3, []);
  assert.equal(snap.owners.size + snap.executors.size + snap.drained.size + snap.requested.size, 0);
  assert.equal(snap.assignmentSeq, 0);
  assert.equal("leader" in snap, false);
});

Deno.test("decode namespace fails loudly when a part is missing", () => {
  const broken = history().filter((e) => e.key.toString() !== `${keys.parts(5)}1`);
  assert.throws(() => decodeNamespace(keys, 40, broken), /Missing part 1 of log\/5/);
});
