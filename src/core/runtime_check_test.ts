import assert from "node:assert/strict";
import {
  compareVersions,
  FIRST_ABORTING_DENO,
  runtimeProblem,
  VERIFIED_DENO,
} from "./runtime_check.ts";

Deno.test("releases before 2.9.4 are not reported; 2.9.4 and every later one are", () => {
  for (const version of ["2.7.14", "2.8.3", "2.9.3", VERIFIED_DENO]) {
    assert.equal(runtimeProblem(version), undefined, version);
  }
  for (const version of [FIRST_ABORTING_DENO, "2.9.5", "2.9.6", "2.10.0", "3.0.0-rc.1"]) {
    const problem = runtimeProblem(version);
    assert.ok(problem, version);
    assert.match(problem, new RegExp(`Deno ${version.replaceAll(".", "\\.")}`));
    assert.match(problem, /denoland\/deno#36788/);
    assert.match(problem, new RegExp(VERIFIED_DENO.replaceAll(".", "\\.")));
  }
});

Deno.test("a version that cannot be parsed is not reported", () => {
  assert.equal(runtimeProblem("canary"), undefined);
});

Deno.test("versions compare by number, not as text", () => {
  assert.ok(compareVersions("2.9.10", "2.9.4") > 0);
  assert.ok(compareVersions("2.10.0", "2.9.99") > 0);
  assert.ok(compareVersions("1.46.3", "2.0.0") < 0);
  assert.throws(() => compareVersions("x", "2.0.0"), TypeError);
});
