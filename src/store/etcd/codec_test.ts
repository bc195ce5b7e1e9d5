import assert from "node:assert/strict";
import { reportsFrom } from "../../core/shared_reports.ts";
import {
  decodeClaim,
  decodeDelta,
  decodeHeartbeat,
  decodeOwners,
  decodePartsPointer,
  decodeReports,
  encodeClaim,
  encodeDelta,
  encodeHeartbeat,
  encodeOwners,
  encodePartsPointer,
  encodeReports,
  splitParts,
} from "./codec.ts";

const encoder = new TextEncoder();

Deno.test("codec round-trips heartbeats, reports, claims and deltas", () => {
  for (const status of ["ACTIVE", "DRAINING", "DRAINED", "UNKNOWN"] as const) {
    const record = { status, timestampMs: 1_700_000_000_123 };
    assert.deepEqual(decodeHeartbeat(encodeHeartbeat(record)), record);
  }
  const unknown = {
    status: "UNKNOWN",
    statusNumber: 7,
    timestampMs: 5,
    appliedRevision: 3,
  } as const;
  assert.equal(encodeHeartbeat(unknown), '{"status":"UNKNOWN","sn":7,"ts":5,"ar":3}');
  assert.deepEqual(decodeHeartbeat(encodeHeartbeat(unknown)), unknown);
  const reports = reportsFrom({
    "0": { status: "READY", load: 1.25 },
    "a/b": { status: "DONE", load: 0 },
  });
  assert.deepEqual(decodeReports(encodeReports(reports)), reports);
  assert.equal(
    encodeReports(reportsFrom({ x: { status: "READY", load: 2 } })),
    '{"x":["READY",2]}',
  );
  const claim = { term: 12, instanceId: "host-1", sinceMs: 99 };
  assert.deepEqual(decodeClaim(encodeClaim(claim)), claim);
  const delta = { assign: { e1: ["0", "1"], "pod/2": ["x"] }, unassign: ["5"], remove: ["y"] };
  assert.deepEqual(decodeDelta(encodeDelta(delta)), delta);
  assert.deepEqual(decodeDelta(encodeDelta({ ...delta, atMs: 1234 })), { ...delta, atMs: 1234 });
  const hide = { ...delta, hide: { e3: 17 } };
  assert.match(encodeDelta(hide), /"x":\{"e3":17\}/);
  assert.deepEqual(decodeDelta(encodeDelta(hide)), hide);
});

Deno.test("codec reads statuses it does not know as UNKNOWN and missing parts as defaults", () => {
  assert.deepEqual(decodeHeartbeat('{"status":"PAUSED","ts":5}'), {
    status: "UNKNOWN",
    timestampMs: 5,
  });
  assert.deepEqual(decodeHeartbeat("{}"), { status: "UNKNOWN", timestampMs: 0 });
  assert.deepEqual(decodeHeartbeat('{"status":"ACTIVE","sn":7,"ts":1}'), {
    status: "ACTIVE",
    timestampMs: 1,
  });
  assert.deepEqual(decodeDelta("{}"), { assign: {}, unassign: [], remove: [] });
  assert.deepEqual(decodeClaim('{"term":"3","instanceId":7,"sinceMs":"1"}'), {
    term: 3,
    instanceId: "7",
    sinceMs: 1,
  });
});

Deno.test("codec round-trips a whole assignment with revisions and times", () => {
  const owners = new Map([["0", "a"], ["1", "b"], ["2", "a"], ["k/1", "c/d"]]);
  const revisions = new Map([["0", 5], ["1", 5], ["2", 9], ["k/1", 9]]);
  const times = new Map([[5, 1000], [9, 2000], [3, 1]]);
  assert.deepEqual(JSON.parse(encodeOwners({ owners, revisions, times })), {
    v: 2,
    o: { a: { 5: ["0"], 9: ["2"] }, b: { 5: ["1"] }, "c/d": { 9: ["k/1"] } },
    t: { 5: 1000, 9: 2000 },
  }, "grouped by revision; times of revisions no shard holds are dropped");
  const into = { owners: new Map([["stale", "z"]]), revisions: new Map(), times: new Map() };
  decodeOwners(encodeOwners({ owners, revisions, times }), into, 77);
  assert.deepEqual(into.owners, new Map([["stale", "z"], ...owners]), "decoding adds to the map");
  assert.deepEqual(into.revisions, revisions);
  assert.deepEqual(into.times, new Map([[5, 1000], [9, 2000]]));
  // Executors hidden from the routing view travel in "x".
  const hidden = new Map([["gone", 41]]);
  const withHidden = {
    owners: new Map(),
    revisions: new Map(),
    times: new Map(),
    hidden: new Map(),
  };
  decodeOwners(encodeOwners({ owners, revisions, times, hidden }), withHidden, 77);
  assert.deepEqual(withHidden.hidden, hidden);
});

Deno.test("codec keeps owner sets in deltas and snapshots; readers without them see primaries", () => {
  const delta = {
    assign: { e1: ["0", "1"] },
    unassign: [],
    remove: [],
    sets: { "0": ["e1", "e2", "e3"] },
  };
  assert.deepEqual(decodeDelta(encodeDelta(delta)), delta);
  assert.equal(JSON.parse(encodeDelta(delta)).a.e1.length, 2, 'the primary stays in "a"');
  assert.equal("s" in JSON.parse(encodeDelta({ ...delta, sets: {} })), false);
  const owners = new Map([["0", "e1"], ["1", "e1"]]);
  const image = {
    owners,
    ownerSets: new Map([["0", ["e1", "e2"]], ["gone", ["x", "y"]]]),
    revisions: new Map([["0", 5], ["1", 5]]),
    times: new Map<number, number>(),
  };
  const into = {
    owners: new Map<string, string>(),
    revisions: new Map<string, number>(),
    times: new Map<number, number>(),
    ownerSets: new Map<string, readonly string[]>(),
  };
  decodeOwners(encodeOwners(image), into, 1);
  assert.deepEqual(into.owners, owners);
  assert.deepEqual(into.ownerSets, new Map([["0", ["e1", "e2"]]]), "sets of unowned shards drop");
});

Deno.test("codec still reads the first snapshot format, at the pointer's revision", () => {
  const into = { owners: new Map(), revisions: new Map(), times: new Map() };
  decodeOwners('{"a":["0","2"],"b":["1"]}', into, 42);
  assert.deepEqual(into.owners, new Map([["0", "a"], ["2", "a"], ["1", "b"]]));
  assert.deepEqual(into.revisions, new Map([["0", 42], ["2", 42], ["1", 42]]));
});

Deno.test("codec parts pointers round-trip and inline values are not pointers", () => {
  assert.deepEqual(decodePartsPointer(encodePartsPointer(3)), { parts: 3 });
  assert.deepEqual(decodePartsPointer(encodePartsPointer(2, 64)), { parts: 2, seq: 64 });
  assert.equal(
    decodePartsPointer(encodeDelta({ assign: {}, unassign: [], remove: [] })),
    undefined,
  );
  assert.equal(decodePartsPointer('{"parts":"x"}'), undefined);
});

Deno.test("splitParts keeps a small value whole", () => {
  assert.deepEqual(splitParts("hello", 5), ["hello"]);
  assert.deepEqual(splitParts("", 4), [""]);
});

Deno.test("splitParts never splits a character, keeps every part within the limit and joins back", () => {
  // ASCII, 2-, 3- and 4-byte characters in a fixed pseudo-random mix.
  const alphabet = ["a", "/", "é", "ß", "€", "日", "😀", "\u{10ffff}"];
  const text = Array.from({ length: 500 }, (_, i) => alphabet[(i * i + 3 * i) % 8]).join("");
  for (const max of [4, 5, 6, 7, 8, 13, 64, 1000]) {
    const parts = splitParts(text, max);
    assert.equal(parts.join(""), text, `max ${max}`);
    for (const part of parts) {
      const bytes = encoder.encode(part).length;
      assert.ok(bytes > 0 && bytes <= max, `max ${max}: a part of ${bytes} bytes`);
      assert.ok(!part.includes("\ufffd"), `max ${max}: a character was cut`);
    }
    assert.ok(parts.length >= Math.ceil(encoder.encode(text).length / max));
  }
});

Deno.test("splitParts fills parts of ASCII text exactly to the limit", () => {
  assert.deepEqual(splitParts("abcdefghij", 4), ["abcd", "efgh", "ij"]);
});

Deno.test("a delta keeps the leader's move counts by reason", () => {
  const moves = { placement: 1, balance: 2, drain: 3, loss: 0 };
  const delta = { assign: { a: ["1"] }, unassign: [], remove: [], moves };
  assert.deepEqual(decodeDelta(encodeDelta(delta)), delta);
  assert.ok(!("moves" in decodeDelta(encodeDelta({ ...delta, moves: undefined! }))));
});

Deno.test("executor ids and shard keys with escapes read back as written", () => {
  // Each id is read after one with its beginning and a trailing backslash, in
  // the same place of an object: there Deno 2.9.3's JSON.parse reads the second
  // as the first (see core/parse_json.ts).
  const ready = { status: "READY", load: 1 } as const;
  for (const [seen, id] of [["a\\", 'a"'], ["b\\", "b\n"], ["\\", "\u0001"]] as const) {
    for (const key of [seen, id]) {
      const delta = decodeDelta(
        encodeDelta({ assign: { e0: ["0"], [key]: ["1"] }, unassign: [], remove: [] }),
      );
      assert.deepEqual(Object.keys(delta.assign), ["e0", key]);
      assert.deepEqual([
        ...decodeReports(encodeReports(reportsFrom({ s: ready, [key]: ready }))).keys(),
      ], [
        "s",
        key,
      ]);
    }
  }
});

Deno.test("warm handover survives the log and the snapshot: prepares, cancels, switch tokens, the flag", () => {
  const delta = {
    assign: { b: ["1"] },
    unassign: [],
    remove: [],
    prepare: { c: ["2"] },
    unprepare: ["3"],
    tokens: { "1": 40 },
    atMs: 7,
  };
  assert.deepEqual(decodeDelta(encodeDelta(delta)), delta);
  const into = {
    owners: new Map<string, string>(),
    revisions: new Map<string, number>(),
    times: new Map<number, number>(),
    preparing: new Map(),
  };
  decodeOwners(
    encodeOwners({
      owners: new Map([["1", "b"], ["2", "a"]]),
      revisions: new Map([["1", 40], ["2", 10]]),
      times: new Map(),
      preparing: new Map([["2", { executor: "c", revision: 44 }], ["9", {
        executor: "c",
        revision: 44,
      }]]),
    }),
    into,
    1,
  );
  assert.deepEqual(
    [...into.preparing],
    [["2", { executor: "c", revision: 44 }]],
    "only owned shards",
  );
  const record = { status: "ACTIVE" as const, timestampMs: 5, warmHandover: true as const };
  assert.deepEqual(decodeHeartbeat(encodeHeartbeat(record)), record);
  assert.equal(
    decodeHeartbeat(encodeHeartbeat({ status: "ACTIVE", timestampMs: 5 })).warmHandover,
    undefined,
  );
  const reports = reportsFrom({ "2": { status: "PREPARED", load: 0 } });
  assert.equal(decodeReports(encodeReports(reports)).get("2")?.status, "PREPARED");
});

Deno.test("a heartbeat record keeps the executor's incarnation", () => {
  const record = { status: "ACTIVE" as const, timestampMs: 5, incarnation: "e1-life-2" };
  assert.deepEqual(decodeHeartbeat(encodeHeartbeat(record)), record);
  assert.equal(decodeHeartbeat('{"status":"ACTIVE","ts":5,"inc":7}').incarnation, undefined);
});
