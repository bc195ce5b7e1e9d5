import assert from "node:assert/strict";
import { InvalidArgumentError } from "./errors.ts";
import { drainIdOf, drainMatches, validateDrainTarget } from "./executor_drain.ts";

Deno.test("drain ids are stable whatever the selector's key order", () => {
  assert.equal(drainIdOf({ selector: { b: "2", a: "1" } }), "selector:a=1,b=2");
  assert.equal(drainIdOf({ selector: { a: "1", b: "2" } }), "selector:a=1,b=2");
  assert.equal(drainIdOf({ executorId: "host/7" }), "id:host/7");
});

Deno.test("a selector matches executors whose metadata has every pair", () => {
  const drain = { selector: { hostname: "w7", zone: "b" } };
  assert.ok(drainMatches(drain, "x", { hostname: "w7", zone: "b", extra: "1" }));
  assert.ok(!drainMatches(drain, "x", { hostname: "w7" }));
  assert.ok(!drainMatches(drain, "x", { hostname: "w7", zone: "c" }));
  assert.ok(drainMatches({ executorId: "e1" }, "e1", {}));
  assert.ok(!drainMatches({ executorId: "e1" }, "e2", {}));
});

Deno.test("targets need exactly one of an id and a sane selector", () => {
  assert.deepEqual(validateDrainTarget("e1", {}), { executorId: "e1" });
  assert.deepEqual(validateDrainTarget("", { a: "" }), { selector: { a: "" } });
  for (
    const [id, selector, field] of [
      ["", {}, "executor_id"],
      ["e1", { a: "1" }, "executor_id"],
      ["", { "a=b": "1" }, "selector"],
      ["", { "": "1" }, "selector"],
      ["", Object.fromEntries(Array.from({ length: 17 }, (_, i) => [`k${i}`, "v"])), "selector"],
      ["x".repeat(257), {}, "executor_id"],
    ] as const
  ) {
    assert.throws(
      () => validateDrainTarget(id, selector),
      (e: unknown) => e instanceof InvalidArgumentError && e.field === field,
    );
  }
});
