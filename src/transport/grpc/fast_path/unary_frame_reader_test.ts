import assert from "node:assert/strict";
import { Buffer } from "node:buffer";
import fc from "fast-check";
import { frameMessage, UnaryFrameReader } from "./unary_frame_reader.ts";

const framed = (message: Uint8Array) => frameMessage(message);

/** `bytes` cut at `cuts` (offsets, any order, repeats allowed). */
function chunks(bytes: Buffer, cuts: number[]): Buffer[] {
  const at = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b);
  const out: Buffer[] = [];
  let from = 0;
  for (const cut of [...at, bytes.length]) {
    out.push(bytes.subarray(from, cut));
    from = cut;
  }
  return out;
}

Deno.test("a message reads back whole however its bytes are split into chunks", () => {
  fc.assert(fc.property(
    fc.uint8Array({ maxLength: 300 }),
    fc.array(fc.nat(), { maxLength: 8 }),
    (message, cuts) => {
      const reader = new UnaryFrameReader("/s/M", 300);
      for (const chunk of chunks(framed(message), cuts)) {
        assert.equal(reader.push(chunk), undefined);
      }
      assert.deepEqual(new Uint8Array(reader.end() as Buffer), message);
    },
  ));
});

Deno.test("a second message, however split, is UNIMPLEMENTED", () => {
  fc.assert(fc.property(
    fc.uint8Array({ maxLength: 50 }),
    fc.uint8Array({ maxLength: 50 }),
    fc.array(fc.nat(), { maxLength: 8 }),
    (first, second, cuts) => {
      const reader = new UnaryFrameReader("/s/M", 100);
      const problems = chunks(Buffer.concat([framed(first), framed(second)]), cuts)
        .map((chunk) => reader.push(chunk)).filter((p) => p !== undefined);
      assert.equal(problems[0]?.code, 12);
      assert.match(
        problems[0]!.details,
        /second request message for server streaming method \/s\/M/,
      );
    },
  ));
});

Deno.test("a message over the limit is refused from its prefix, before its bytes arrive", () => {
  const reader = new UnaryFrameReader("/s/M", 10);
  assert.equal(reader.push(Buffer.of(0, 0, 0)), undefined);
  assert.deepEqual(reader.push(Buffer.of(0, 11)), {
    code: 8,
    details: "Received message larger than max (11 vs 10)",
  });
  const unbounded = new UnaryFrameReader("/s/M", -1);
  assert.equal(unbounded.push(framed(new Uint8Array(11))), undefined);
});

Deno.test("no whole message by the end is UNIMPLEMENTED", () => {
  for (
    const body of [Buffer.alloc(0), Buffer.of(0, 0), framed(Uint8Array.of(1, 2)).subarray(0, 6)]
  ) {
    const reader = new UnaryFrameReader("/s/M", 10);
    reader.push(body);
    const end = reader.end();
    assert.ok(!Buffer.isBuffer(end));
    assert.equal(end.code, 12);
    assert.equal(end.details, "Received no request message for server streaming method /s/M");
  }
  const empty = new UnaryFrameReader("/s/M", 10);
  empty.push(framed(new Uint8Array()));
  assert.deepEqual([...(empty.end() as Buffer)], []);
});
