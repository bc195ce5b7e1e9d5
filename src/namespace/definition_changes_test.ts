import assert from "node:assert/strict";
import type { NamespaceConfig } from "../config/mod.ts";
import { describeChanges, refusal } from "./definition_changes.ts";

const fixed: NamespaceConfig = {
  kind: "fixed",
  name: "o",
  shardNum: 4,
  loadBalancer: "greedy",
  ownership: { mode: "available" },
};

Deno.test("policy fields change live; shardNum needs force", () => {
  assert.equal(
    refusal(fixed, { ...fixed, loadBalancer: "naive", maxMovesPerPass: 2 }, false),
    undefined,
  );
  assert.match(refusal(fixed, { ...fixed, shardNum: 2 }, false) ?? "", /shardNum 4 → 2.*--force/);
  assert.equal(refusal(fixed, { ...fixed, shardNum: 2 }, true), undefined);
});

Deno.test("ownership, kind and replication changes are refused, even with force", () => {
  const exclusive = { ...fixed, ownership: { mode: "exclusive" as const } };
  assert.match(
    refusal(fixed, exclusive, true) ?? "",
    /cannot switch ownership from available to exclusive/,
  );
  assert.match(refusal(exclusive, fixed, true) ?? "", /from exclusive to available/);
  assert.match(
    refusal(fixed, {
      kind: "ephemeral",
      name: "o",
      loadBalancer: "greedy",
      ownership: { mode: "available" },
    }, true) ?? "",
    /fixed namespace into a ephemeral/,
  );
  const replicated = {
    ...fixed,
    replication: { replicas: 2, zoneKey: "zone", placement: "balanced" as const },
  };
  assert.match(refusal(fixed, replicated, true) ?? "", /replicas/);
  const lease = { ...fixed, ownership: { mode: "exclusive" as const, leaseMs: 9_000 } };
  assert.equal(refusal(exclusive, lease, false), undefined, "the lease changes live");
});

Deno.test("describeChanges lists each changed field once, sorted", () => {
  assert.deepEqual(describeChanges({ a: 1, b: 2 }, { a: 1, b: 3, c: "x" }), [
    "b: 2 → 3",
    'c: (default) → "x"',
  ]);
  assert.deepEqual(describeChanges({ a: 1 }, { a: 1 }), []);
});
