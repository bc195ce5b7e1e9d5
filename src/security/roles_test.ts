import assert from "node:assert/strict";
import { grants, READ_METHODS, requiredRole } from "./roles.ts";

Deno.test("reads need spectator, Heartbeat needs executor, the rest operator", () => {
  for (const method of READ_METHODS) assert.equal(requiredRole(method), "spectator");
  assert.equal(requiredRole("Heartbeat"), "executor");
  for (
    const method of [
      "DrainShards",
      "UndrainShards",
      "ForceResetNamespace",
      "DrainExecutors",
      "UndrainExecutors",
      "CreateNamespace",
      "UpdateNamespace",
      "DeleteNamespace",
      "SomeFutureMethod",
    ]
  ) {
    assert.equal(requiredRole(method), "operator", method);
  }
});

Deno.test("an operator may read but not heartbeat; other roles imply nothing", () => {
  assert.ok(grants(["operator"], "spectator"));
  assert.ok(grants(["operator"], "operator"));
  assert.ok(!grants(["operator"], "executor"));
  assert.ok(!grants(["spectator"], "executor"));
  assert.ok(!grants(["executor"], "spectator"));
  assert.ok(!grants([], "spectator"));
  assert.ok(grants(["spectator", "executor"], "executor"));
});
