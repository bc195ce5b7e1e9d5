import assert from "node:assert/strict";
import { Buffer } from "node:buffer";
import fc from "fast-check";
import { executorService } from "../../../wire/proto.ts";
import { reportsSpan, splitHeartbeatReports, splitReportsOf } from "./heartbeat_split.ts";

const method = executorService.Heartbeat;
const split = splitHeartbeatReports(executorService, "Heartbeat").Heartbeat;
const encode = (request: unknown) => method.requestSerialize(request as never) as Buffer;
type Decoded = { shardStatusReports: Record<string, unknown> } & Record<string, unknown>;

const reportArb = fc.record({
  status: fc.constantFrom("SHARD_STATUS_READY", "SHARD_STATUS_DONE", 7),
  shardLoad: fc.double({ noNaN: true }),
});
const requestArb = fc.record({
  namespace: fc.string(),
  executorId: fc.string(),
  status: fc.constantFrom("EXECUTOR_STATUS_ACTIVE", "EXECUTOR_STATUS_DRAINING", 9),
  shardStatusReports: fc.dictionary(fc.string(), reportArb, { maxKeys: 20 }),
  metadata: fc.dictionary(fc.string(), fc.string(), { maxKeys: 3 }),
  appliedRevision: fc.bigInt({ min: 0n, max: 2n ** 62n }).map(String),
});

Deno.test("a split heartbeat decodes to what the plain deserializer gives, reports included", () => {
  fc.assert(fc.property(requestArb, (request) => {
    const bytes = encode(request);
    const whole = method.requestDeserialize(bytes) as unknown as Decoded;
    const parted = split.requestDeserialize(bytes) as unknown as Decoded;
    const reports = splitReportsOf(parted);
    const { shardStatusReports, ...rest } = whole;
    const { shardStatusReports: left, ...partedRest } = parted;
    assert.deepEqual(partedRest, rest);
    if (Object.keys(shardStatusReports).length === 0) {
      assert.equal(reports, undefined, "nothing to keep apart");
      assert.deepEqual(left, {});
      return;
    }
    assert.ok(reports, "the reports are kept encoded");
    assert.deepEqual(left, {}, "the request itself carries none");
    assert.deepEqual(reports.decode(), shardStatusReports);
    // The same request encodes to the same bytes: what the memo relies on.
    assert.deepEqual(
      splitReportsOf(split.requestDeserialize(encode(request)))?.bytes,
      reports.bytes,
    );
  }));
});

Deno.test("different reports give different bytes, and the kept bytes are a copy", () => {
  const request = {
    namespace: "ns",
    executorId: "e1",
    status: "EXECUTOR_STATUS_ACTIVE",
    shardStatusReports: { "1": { status: "SHARD_STATUS_READY", shardLoad: 1 } },
  };
  const bytes = encode(request);
  const first = splitReportsOf(split.requestDeserialize(bytes))!;
  const kept = Uint8Array.from(first.bytes);
  bytes.fill(0); // grpc-js may reuse nothing, but the memo must not depend on it
  assert.deepEqual(first.bytes, kept, "the kept bytes are a copy");
  const again = splitReportsOf(split.requestDeserialize(encode(request)))!;
  assert.deepEqual(again.bytes, first.bytes, "the copy survives the buffer");
  const loaded = { ...request, shardStatusReports: { "1": { status: 1, shardLoad: 1.5 } } };
  const other = splitReportsOf(split.requestDeserialize(encode(loaded)))!;
  assert.notDeepEqual(other.bytes, first.bytes);
});

Deno.test("report entries that are not one run are decoded with the rest, as usual", () => {
  const entry = encode({ shardStatusReports: { a: { status: 1, shardLoad: 2 } } });
  const other = encode({ shardStatusReports: { b: { status: 2, shardLoad: 3 } } });
  const namespace = encode({ namespace: "ns" });
  const bytes = Buffer.concat([entry, namespace, other]);
  assert.equal(reportsSpan(bytes), undefined);
  const decoded = split.requestDeserialize(bytes) as unknown as Decoded;
  assert.equal(splitReportsOf(decoded), undefined);
  assert.deepEqual(Object.keys(decoded.shardStatusReports).sort(), ["a", "b"]);
  assert.equal(decoded.namespace, "ns");
});

Deno.test("reportsSpan refuses malformed top-level records instead of guessing", () => {
  assert.equal(reportsSpan(Uint8Array.of(0x22, 5, 1)), undefined, "length past the end");
  assert.equal(reportsSpan(Uint8Array.of(0x20, 1)), undefined, "field 4 as a varint");
  assert.equal(reportsSpan(Uint8Array.of(0x0b)), undefined, "a group");
  assert.equal(reportsSpan(Uint8Array.of(0x80)), undefined, "a tag that never ends");
  assert.deepEqual(reportsSpan(Uint8Array.of(0x0a, 0)), { start: 2, end: 2 }, "no reports");
});

Deno.test("malformed entries inside the run fail when decoded, not before", () => {
  const bytes = Buffer.concat([encode({ namespace: "ns" }), Buffer.from([0x22, 2, 0x0a, 5])]);
  const decoded = split.requestDeserialize(bytes) as unknown as Decoded;
  assert.equal(decoded.namespace, "ns");
  assert.throws(() => splitReportsOf(decoded)!.decode());
});
