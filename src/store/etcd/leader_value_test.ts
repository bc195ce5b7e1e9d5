import assert from "node:assert/strict";
import { decodeClaim } from "./codec.ts";
import { decodeLeaderValue, encodeLeaderValue, paddedTerm } from "./leader_value.ts";

Deno.test("leader values of larger terms compare greater, like the numbers", () => {
  const terms = [0, 1, 2, 9, 10, 11, 99, 100, 1_000, 123_456_789, 2 ** 52];
  const values = terms.map((term) => encodeLeaderValue({ term, instanceId: "zzz", sinceMs: 0 }));
  assert.deepEqual(values.toSorted(), values);
  for (let i = 1; i < values.length; i++) assert.ok(values[i - 1]! < values[i]!);
  // The instance id never decides the order: only the padded term does.
  const low = encodeLeaderValue({ term: 9, instanceId: "zzzz", sinceMs: 9 });
  const high = encodeLeaderValue({ term: 10, instanceId: "a", sinceMs: 0 });
  assert.ok(low < high);
});

Deno.test("paddedTerm is twenty digits", () => {
  assert.equal(paddedTerm(42), "00000000000000000042");
  assert.equal(paddedTerm(Number.MAX_SAFE_INTEGER).length, 20);
});

Deno.test("leader value decodes back to the claim, even with spaces in the instance id", () => {
  const claim = { term: 17, instanceId: "host a b", sinceMs: 1_700_000_000_000 };
  const value = encodeLeaderValue(claim);
  assert.ok(value.startsWith(`${paddedTerm(17)} {`));
  assert.deepEqual(decodeClaim(decodeLeaderValue(value)), claim);
});
