import assert from "node:assert/strict";
import { EncodedByStamp, EncodedOnce } from "./pre_encoded.ts";

Deno.test("EncodedOnce encodes each value once", () => {
  let calls = 0;
  const once = new EncodedOnce((v: { n: number }) => (calls++, Uint8Array.of(v.n)));
  const value = { n: 7 };
  assert.deepEqual(once.bytesOf(value), Uint8Array.of(7));
  assert.equal(once.bytesOf(value), once.bytesOf(value));
  assert.equal(calls, 1);
});

Deno.test("EncodedByStamp re-encodes only when the stamp moves, and starts over past its limit", () => {
  let calls = 0;
  const kept = new EncodedByStamp(2);
  const encode = () => Uint8Array.of(++calls);
  assert.deepEqual(kept.bytesOf("a", 1, encode), Uint8Array.of(1));
  assert.deepEqual(kept.bytesOf("a", 1, encode), Uint8Array.of(1));
  assert.deepEqual(kept.bytesOf("a", 2, encode), Uint8Array.of(2));
  kept.bytesOf("b", 1, encode);
  kept.bytesOf("c", 1, encode); // over the limit: "a" and "b" are forgotten
  assert.deepEqual(kept.bytesOf("a", 2, encode), Uint8Array.of(5));
});
