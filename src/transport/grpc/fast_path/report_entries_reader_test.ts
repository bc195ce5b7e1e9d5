import assert from "node:assert/strict";
import type { Buffer } from "node:buffer";
import fc from "fast-check";
import { indexKeys } from "../../../core/index_keys.ts";
import { executorService } from "../../../wire/proto.ts";
import { splitHeartbeatReports, splitReportsOf } from "./heartbeat_split.ts";
import { readReportEntries } from "./report_entries_reader.ts";

const method = executorService.Heartbeat;
const split = splitHeartbeatReports(executorService, "Heartbeat").Heartbeat;
const encode = (request: unknown) => method.requestSerialize(request as never) as Buffer;

/** What protobufjs makes of the entries: the handler's generic path. */
function generic(
  entries: Uint8Array,
): Record<string, { status: unknown; load: unknown; failedStarts: unknown }> {
  const decoded = method.requestDeserialize(entries as Buffer) as unknown as {
    shardStatusReports: Record<
      string,
      { status: unknown; shardLoad: unknown; failedStarts: unknown }
    >;
  };
  const out: Record<string, { status: unknown; load: unknown; failedStarts: unknown }> = {};
  for (const [key, r] of Object.entries(decoded.shardStatusReports)) {
    out[key] = { status: r.status, load: r.shardLoad, failedStarts: r.failedStarts };
  }
  return out;
}

/** Equal as values, -0 and NaN included (deepEqual takes -0 for 0). */
function assertSameReports(
  actual: ReadonlyMap<string, { status: unknown; load: unknown; failedStarts?: unknown }>,
  expected: Record<string, { status: unknown; load: unknown; failedStarts: unknown }>,
): void {
  assert.deepEqual([...actual.keys()].sort(), Object.keys(expected).sort());
  for (const [key, value] of Object.entries(expected)) {
    const mine = actual.get(key)!;
    assert.equal(mine.status, value.status, key);
    assert.equal(mine.failedStarts ?? 0, value.failedStarts ?? 0, `${key}: failed starts`);
    assert.ok(Object.is(mine.load, value.load), `${key}: ${mine.load} vs ${value.load}`);
  }
}

const keyArb = fc.oneof(
  fc.nat({ max: 2_000 }).map(String),
  fc.constantFrom("0", "00", "007", "-1", "1e3", "", " 1", "9007199254740993"),
  fc.string(),
  fc.string({ unit: "grapheme" }),
);
const reportArb = fc.record({
  status: fc.oneof(
    fc.constantFrom(
      "SHARD_STATUS_INVALID",
      "SHARD_STATUS_READY",
      "SHARD_STATUS_DONE",
      "SHARD_STATUS_NOT_RUNNING",
    ),
    fc.integer({ min: -3, max: 2 ** 31 - 1 }),
  ),
  shardLoad: fc.oneof(fc.double(), fc.constantFrom(-0, 0, 1, Infinity, -Infinity, NaN)),
  failedStarts: fc.oneof(fc.constant(0), fc.nat({ max: 1_000 })),
});

Deno.test("report entries read directly equal protobufjs's, or are left to it", () => {
  indexKeys(2_001);
  fc.assert(
    fc.property(fc.dictionary(keyArb, reportArb, { minKeys: 1, maxKeys: 30 }), (reports) => {
      const bytes = encode({ namespace: "ns", executorId: "e", shardStatusReports: reports });
      const entries = splitReportsOf(split.requestDeserialize(bytes))!.bytes;
      const direct = readReportEntries(entries);
      const ascii = Object.keys(reports).every((k) => [...k].every((c) => c.charCodeAt(0) < 128));
      const validEnums = Object.values(reports).every((r) =>
        typeof r.status === "string" || r.status >= 0
      );
      if (ascii && validEnums) assert.ok(direct, "ASCII keys and enums in range are read directly");
      if (direct) assertSameReports(direct, generic(entries));
    }),
    { numRuns: 1_000 },
  );
});

Deno.test("shard-number keys and known statuses read as protobufjs names them", () => {
  const [zero, , two] = indexKeys(3);
  const bytes = encode({
    namespace: "ns",
    executorId: "e",
    shardStatusReports: { "2": { status: 1, shardLoad: 1 }, "0": { status: 2, shardLoad: 0 } },
  });
  const direct = readReportEntries(splitReportsOf(split.requestDeserialize(bytes))!.bytes)!;
  assert.deepEqual([...direct.keys()].sort(), [zero, two]);
  assert.equal(direct.get("2")?.status, "SHARD_STATUS_READY");
  assert.equal(direct.get("0")?.status, "SHARD_STATUS_DONE");
});

/** A length-delimited field. */
const delimited = (tag: number, payload: number[]) => [tag, payload.length, ...payload];
const bytesArb = (max: number) => fc.array(fc.integer({ min: 0, max: 255 }), { maxLength: max });
/** Fields of a ShardStatusReport, well-formed or not. */
const valueField = fc.oneof(
  fc.integer({ min: 0, max: 300 }).map((n) =>
    n < 128 ? [0x08, n] : [0x08, (n & 0x7f) | 0x80, n >> 7]
  ),
  fc.double().map((d) => [0x11, ...new Uint8Array(new Float64Array([d]).buffer)]),
  fc.constantFrom([0x10, 1], [0x09, 1, 2, 3, 4, 5, 6, 7, 8], [0x18, 5], [0x25, 1, 2, 3, 4], [
    0x11,
    1,
  ]),
  bytesArb(6),
);
/** Fields of a map entry, well-formed or not. */
const entryField = fc.oneof(
  fc.stringMatching(/^[0-9a-z]{0,4}$/).map((k) =>
    delimited(0x0a, [...k].map((c) => c.charCodeAt(0)))
  ),
  fc.array(valueField, { maxLength: 3 }).map((fields) => delimited(0x12, fields.flat())),
  fc.constantFrom([0x08, 1], [0x1a, 1, 0x41], [0x10, 2], [0x0a, 1, 0xc3]),
  bytesArb(4),
);

Deno.test("any bytes: read directly only when protobufjs reads the same", () => {
  let direct = 0;
  const entry = fc.array(entryField, { maxLength: 4 }).map((fields) =>
    delimited(0x22, fields.flat())
  );
  fc.assert(
    fc.property(fc.array(entry, { minLength: 1, maxLength: 4 }), (records) => {
      const entries = Uint8Array.from(records.flat());
      const read = readReportEntries(entries);
      if (!read) return;
      let expected;
      try {
        expected = generic(entries);
      } catch {
        assert.fail(`read directly, refused by protobufjs: ${[...entries]}`);
      }
      assertSameReports(read, expected);
      direct++;
    }),
    { numRuns: 5_000 },
  );
  assert.ok(direct > 50, `only ${direct} of 5,000 were read directly`);
});
