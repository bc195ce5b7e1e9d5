import assert from "node:assert/strict";
import fc from "fast-check";
import { hashKeyInto, hashKeyIntoPortable, keyHash, keyHashHex } from "./key_hash.ts";
import { hashAsciiWasm } from "./_xxh64_wasm.ts";
import { xxh64BigInt } from "./_xxh64_bigint.ts";

interface Vectors {
  readonly vectors: readonly { key: string; utf8Bytes: number; xxh64: string }[];
}

const vectors: Vectors = JSON.parse(
  await Deno.readTextFile(new URL("../../tests/vectors/key_hash_vectors.json", import.meta.url)),
);

Deno.test("key hash matches the vectors computed by the reference C library", () => {
  assert.ok(vectors.vectors.length >= 20);
  for (const { key, utf8Bytes, xxh64 } of vectors.vectors) {
    assert.equal(new TextEncoder().encode(key).length, utf8Bytes, JSON.stringify(key));
    assert.equal(keyHashHex(key), xxh64, JSON.stringify(key));
    assert.equal(keyHash(key), BigInt(`0x${xxh64}`));
  }
});

Deno.test("the vectors cover empty, ASCII, non-ASCII and long keys and every tail length", () => {
  const sizes = vectors.vectors.map((v) => v.utf8Bytes);
  assert.ok(sizes.includes(0));
  assert.ok(sizes.some((n) => n > 1000));
  assert.ok(vectors.vectors.some((v) => v.utf8Bytes > v.key.length));
  for (let tail = 0; tail < 8; tail++) assert.ok(sizes.some((n) => n % 8 === tail), `tail ${tail}`);
});

Deno.test("key hash equals a plain bigint XXH64 of TextEncoder's bytes on random keys", () => {
  fc.assert(
    fc.property(fc.string({ unit: "binary", maxLength: 80 }), (key) => {
      const expected = xxh64BigInt(new TextEncoder().encode(key));
      assert.equal(keyHash(key), expected);
    }),
    { numRuns: 2000 },
  );
});

Deno.test("the ASCII fast path equals the bigint XXH64 on short ASCII keys and their neighbours", () => {
  fc.assert(
    fc.property(
      fc.string({ maxLength: 40 }),
      fc.string({ unit: "binary", maxLength: 2 }),
      (a, b) => {
        for (const key of [a, a + b, b + a]) {
          const expected = xxh64BigInt(new TextEncoder().encode(key));
          assert.equal(keyHash(key), expected, JSON.stringify(key));
        }
      },
    ),
    { numRuns: 2_000 },
  );
});

Deno.test("a lone surrogate hashes as U+FFFD, like TextEncoder encodes it", () => {
  assert.equal(keyHash("a\ud800b"), keyHash("a\ufffdb"));
  assert.equal(keyHash("\udc00"), keyHash("\ufffd"));
});

Deno.test("hashKeyInto writes the high and the low half", () => {
  const out = new Uint32Array(2);
  hashKeyInto("a", out);
  assert.deepEqual([...out], [0xd24ec4f1, 0xa98c6e5b]);
  hashKeyInto("x".repeat(5000), out); // grows the buffer
  assert.equal((BigInt(out[0]!) << 32n) | BigInt(out[1]!), keyHash("x".repeat(5000)));
});

/** The point `hash` writes for `key`, as a bigint. */
function pointBy(hash: (key: string, out: Uint32Array) => void, key: string): bigint {
  const out = new Uint32Array(2);
  hash(key, out);
  return (BigInt(out[0]!) << 32n) | BigInt(out[1]!);
}

Deno.test("the WebAssembly path and the JavaScript one both give the vectors' points", () => {
  const out = new Uint32Array(2);
  assert.ok(hashAsciiWasm("a", out), "WebAssembly runs here");
  for (const { key, xxh64 } of vectors.vectors) {
    const expected = BigInt(`0x${xxh64}`);
    assert.equal(pointBy(hashKeyIntoPortable, key), expected, JSON.stringify(key));
    assert.equal(pointBy(hashKeyInto, key), expected, JSON.stringify(key));
  }
});

Deno.test("the WebAssembly path equals the JavaScript one on random keys of every length it takes", () => {
  fc.assert(
    fc.property(
      fc.string({ maxLength: 300 }),
      fc.string({ unit: "binary", maxLength: 3 }),
      (a, b) => {
        for (const key of [a, a + b]) {
          assert.equal(pointBy(hashKeyInto, key), pointBy(hashKeyIntoPortable, key));
          assert.equal(
            pointBy(hashKeyIntoPortable, key),
            xxh64BigInt(new TextEncoder().encode(key)),
          );
        }
      },
    ),
    { numRuns: 2_000 },
  );
});

Deno.test("keys the WebAssembly page cannot hold, or not ASCII, take the JavaScript path", () => {
  const out = new Uint32Array(2);
  const longest = "k".repeat(65_528);
  assert.equal(hashAsciiWasm(longest, out), true);
  assert.equal(hashAsciiWasm(longest + "k", out), false);
  assert.equal(hashAsciiWasm("ключ", out), false);
  for (const key of [longest, longest + "k", "ключ"]) {
    assert.equal(pointBy(hashKeyInto, key), xxh64BigInt(new TextEncoder().encode(key)));
  }
});
