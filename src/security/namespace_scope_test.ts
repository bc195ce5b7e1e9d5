import assert from "node:assert/strict";
import { describeScope, inScope } from "./namespace_scope.ts";

Deno.test("a namespace scope matches exact names and globs, and nothing else", () => {
  const scope = ["orders", "team-a-*", "shard-?"];
  for (const ok of ["orders", "team-a-", "team-a-x.y", "shard-1"]) {
    assert.ok(inScope(scope, ok), ok);
  }
  for (const no of ["orders2", "xorders", "team-b-x", "shard-10", "team-a"]) {
    assert.ok(!inScope(scope, no), no);
  }
});

Deno.test("regular-expression characters in a namespace scope are literal", () => {
  assert.ok(inScope(["a.b"], "a.b"));
  assert.ok(!inScope(["a.b"], "axb"));
  assert.ok(!inScope(["(x)"], "x"));
});

Deno.test("an absent scope covers every namespace, an empty one none", () => {
  assert.ok(inScope(undefined, "x"));
  assert.ok(!inScope([], "x"));
  assert.equal(describeScope(undefined), "every namespace");
  assert.equal(describeScope([]), "no namespace");
});
