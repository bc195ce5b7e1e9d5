/**
 * The Deno pin lives in `.dvmrc`; every installer reads it or names the same
 * release, and the tests themselves run on it (docs/reliability.md, "Runtime").
 */
import assert from "node:assert/strict";
import { runtimeProblem, VERIFIED_DENO } from "../src/core/runtime_check.ts";

const root = new URL("../", import.meta.url);
const read = (path: string) => Deno.readTextFileSync(new URL(path, root));
const pin = read(".dvmrc").trim();

Deno.test(".dvmrc pins one exact release, the one the service knows is safe", () => {
  assert.match(pin, /^\d+\.\d+\.\d+$/);
  assert.equal(pin, VERIFIED_DENO, "src/core/runtime_check.ts VERIFIED_DENO must equal .dvmrc");
  assert.equal(runtimeProblem(pin), undefined);
});

Deno.test("the tests run on the pinned Deno", () => {
  assert.equal(
    Deno.version.deno,
    pin,
    `this Deno is ${Deno.version.deno}; the project pins ${pin} (.dvmrc): ` +
      `npm install -g deno@${pin}`,
  );
});

Deno.test("CI, the Dockerfile and the README install the pinned release", () => {
  assert.match(read(".ci/run"), /deno_pin=\$\(tr -d '\[:space:\]' <\.dvmrc\)/);
  assert.match(read(".ci/run"), /npm install -g "deno@\$deno_pin"/);
  assert.doesNotMatch(read(".ci/run"), /npm install -g deno( |$)/m);
  const arg = read("Dockerfile").match(/^ARG DENO_VERSION=(\S+)$/m);
  assert.equal(arg?.[1], pin, "Dockerfile ARG DENO_VERSION");
  assert.ok(read("README.md").includes(`npm install -g deno@${pin}`), "README quick start");
  assert.doesNotMatch(read("README.md"), /npm install -g deno[`)\s]/);
});
