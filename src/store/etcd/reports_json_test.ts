import assert from "node:assert/strict";
import fc from "fast-check";
import type { ShardReport } from "../../core/types.ts";
import { decodeReports, encodeReports } from "./reports_json.ts";

const keyArb = fc.oneof(
  fc.nat({ max: 5_000 }).map(String),
  fc.constantFrom("0", "007", "-1", "1e3", "", "a/b", 'q"uote', "back\\slash", "\u0001", "\ud800"),
  fc.string(),
  fc.string({ unit: "grapheme" }),
);
const reportArb: fc.Arbitrary<ShardReport> = fc.record({
  status: fc.constantFrom("READY", "DONE", "NOT_RUNNING"),
  load: fc.oneof(
    fc.double({ min: 0, max: 1e300, noNaN: true }),
    fc.constantFrom(0, -0, 1, 0.1, 1e-7, 2 ** 53, 123456789012345),
  ),
});
const reportsArb = fc.array(fc.tuple(keyArb, reportArb), { maxLength: 30 }).map((entries) =>
  new Map(entries)
);

/** What the previous encoder wrote: JSON.stringify of a plain object of [status, load]. */
function previousText(reports: ReadonlyMap<string, ShardReport>): string {
  const out: Record<string, [string, number]> = {};
  for (const [key, report] of reports) out[key] = [report.status, report.load];
  return JSON.stringify(out);
}

const plain = (reports: ReadonlyMap<string, ShardReport>) =>
  JSON.parse(JSON.stringify(Object.fromEntries(reports)));

Deno.test("stored reports read back as written, and as JSON.parse reads the same text", () => {
  fc.assert(
    fc.property(reportsArb, (reports) => {
      const text = encodeReports(reports);
      assert.deepEqual(JSON.parse(text), JSON.parse(previousText(reports)), "the same JSON value");
      const read = decodeReports(text);
      assert.deepEqual([...read.keys()].sort(), [...reports.keys()].sort());
      assert.deepEqual(plain(read), plain(reports));
    }),
    { numRuns: 1_000 },
  );
});

Deno.test("texts the previous encoder wrote read the same", () => {
  fc.assert(
    fc.property(reportsArb, (reports) => {
      assert.deepEqual(plain(decodeReports(previousText(reports))), plain(reports));
    }),
    { numRuns: 500 },
  );
});

Deno.test("texts not written this way are read by the JSON parser", () => {
  const cases: [string, Record<string, ShardReport>][] = [
    ['{ "1" : ["READY", 2] }', { "1": { status: "READY", load: 2 } }],
    ['{"1":["READY",2.5e1],"2":["DONE",0]}', {
      "1": { status: "READY", load: 25 },
      "2": { status: "DONE", load: 0 },
    }],
    ['{"a\\"b":["READY",1]}', { 'a"b': { status: "READY", load: 1 } }],
    ['{"1":["READY",1],"1":["DONE",0]}', { "1": { status: "DONE", load: 0 } }],
    ["{}", {}],
  ];
  for (const [text, expected] of cases) {
    assert.deepEqual(Object.fromEntries(decodeReports(text)), expected, text);
  }
  assert.throws(() => decodeReports('{"1":["READY",1]'), SyntaxError);
  assert.throws(() => decodeReports("[1]x"), SyntaxError);
});

Deno.test("failed starts are stored as a third element and read back, directly or by the parser", () => {
  const reports = new Map<string, ShardReport>([
    ["7", { status: "NOT_RUNNING", load: 0, failedStarts: 3 }],
    ["8", { status: "READY", load: 1.5 }],
  ]);
  const text = encodeReports(reports);
  assert.equal(text, '{"7":["NOT_RUNNING",0,3],"8":["READY",1.5]}');
  assert.deepEqual(plain(decodeReports(text)), plain(reports));
  assert.deepEqual(
    plain(decodeReports('{ "7": ["NOT_RUNNING", 0, 2] }')),
    { "7": { status: "NOT_RUNNING", load: 0, failedStarts: 2 } },
  );
});

Deno.test("a slice's top keys are stored as a fourth element and read back", () => {
  const reports = new Map<string, ShardReport>([
    ["3", {
      status: "READY",
      load: 10,
      topKeys: [{ key: 'te"nant', load: 9 }, { key: "b", load: 0.5 }],
    }],
    ["4", { status: "NOT_RUNNING", load: 0, failedStarts: 2, topKeys: [{ key: "x", load: 1 }] }],
    ["5", { status: "READY", load: 1 }],
  ]);
  const text = encodeReports(reports);
  assert.equal(
    text,
    '{"3":["READY",10,0,[["te\\"nant",9],["b",0.5]]],"4":["NOT_RUNNING",0,2,[["x",1]]],"5":["READY",1]}',
  );
  assert.deepEqual(decodeReports(text), reports);
});
