import assert from "node:assert/strict";
import { InvalidArgumentError } from "commander";
import { collectSelectorPair, selectorFrom, selectorMatches } from "./selector.ts";
import { UsageError } from "./errors.ts";

Deno.test("--selector pairs accumulate and must look like key=value", () => {
  assert.deepEqual(collectSelectorPair("b=2", collectSelectorPair("a=1")), ["a=1", "b=2"]);
  assert.throws(() => collectSelectorPair("novalue"), InvalidArgumentError);
  assert.throws(() => collectSelectorPair("=v"), InvalidArgumentError);
  assert.deepEqual(collectSelectorPair("k="), ["k="], "an empty value is a value");
});

Deno.test("selectorFrom splits at the first '=' and refuses one key with two values", () => {
  assert.deepEqual(selectorFrom(["url=http://x?a=b", "zone=b", "zone=b"]), {
    url: "http://x?a=b",
    zone: "b",
  });
  assert.throws(() => selectorFrom(["zone=a", "zone=b"]), UsageError);
});

Deno.test("a selector matches metadata that has all of its pairs", () => {
  const metadata = { hostname: "worker-7", zone: "b" };
  assert.equal(selectorMatches(metadata, { hostname: "worker-7" }), true);
  assert.equal(selectorMatches(metadata, { hostname: "worker-7", zone: "b" }), true);
  assert.equal(selectorMatches(metadata, { hostname: "worker-7", zone: "a" }), false);
  assert.equal(selectorMatches(metadata, { rack: "" }), false, "a missing key never matches");
  assert.equal(selectorMatches({}, { toString: "x" }), false);
});
