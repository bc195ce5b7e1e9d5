import assert from "node:assert/strict";
import { SmctlError, UsageError } from "./errors.ts";
import { ExitCode } from "./exit_codes.ts";
import { runsEverywhere, targetDrainId, targetsOf } from "./drain_targets.ts";

Deno.test("targetsOf makes one target per id, in order, without duplicates", () => {
  assert.deepEqual(targetsOf(["b", "a", "b"], [], "x"), [{ executorId: "b" }, { executorId: "a" }]);
});

Deno.test("targetsOf refuses ids with a selector, neither, and an empty id", () => {
  assert.throws(() => targetsOf(["a"], ["k=v"], "executor drain"), UsageError);
  assert.throws(() => targetsOf([], [], "executor drain"), /at least one --selector/);
  assert.throws(() => targetsOf(["a", " "], [], "executor drain"), /must not be empty/);
});

Deno.test("runsEverywhere finds a selector's namespaces and refuses a target that runs nowhere", () => {
  const seen = new Map([
    ["a", [{ id: "w1", metadata: { zone: "b" } }]],
    ["b", [{ id: "w2", metadata: { zone: "c" } }]],
    ["c", [{ id: "w3", metadata: { zone: "b" } }]],
  ]);
  assert.deepEqual(runsEverywhere([{ selector: { zone: "b" } }], seen), [
    { namespace: "a", target: { selector: { zone: "b" } } },
    { namespace: "c", target: { selector: { zone: "b" } } },
  ]);
  assert.throws(
    () => runsEverywhere([{ executorId: "w1" }, { executorId: "nope" }], seen),
    (error) =>
      error instanceof SmctlError && error.exitCode === ExitCode.NOT_FOUND &&
      /executor "nope" runs in no namespace/.test(error.message) &&
      /nothing was changed/.test(error.message),
  );
});

Deno.test("targetDrainId sorts selector keys like the service", () => {
  assert.equal(targetDrainId({ executorId: "w" }), "id:w");
  assert.equal(targetDrainId({ selector: { b: "2", a: "1" } }), "selector:a=1,b=2");
});
