/**
 * The SDK package (`packages/sdk/`) stays usable outside this repository:
 * every module it loads names npm packages by full `npm:` specifiers at
 * deno.json's ranges, uses no Deno-only API, and its version is the one the
 * changelog and its README state. (The fresh-project tests,
 * `sdk_deno_project_test.ts` and `sdk_node_project_test.ts`, run it for real.)
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { REPO_ROOT, SDK_CONFIG, SDK_DIR, sdkModules, sdkPackages } from "../scripts/sdk_graph.ts";

const modules = sdkModules();

Deno.test("every module the SDK loads names its npm packages as npm:<name>@<deno.json's range>", async () => {
  const { packages, problems } = sdkPackages(await modules);
  assert.deepEqual(problems, []);
  assert.deepEqual(Object.keys(packages).sort(), ["@grpc/grpc-js", "protobufjs"]);
});

Deno.test("the SDK loads only the client SDKs, the wire contract, the pure placement functions and shared pure code", async () => {
  // src/shared/ imports nothing else (tests/boundaries_test.ts): the executor's declared capacity.
  const allowed = [`${SDK_DIR}/`, "src/client/", "src/wire/", "src/placement/", "src/shared/"];
  const outside = (await modules).map((m) => m.path)
    .filter((path) => !allowed.some((prefix) => path.startsWith(prefix)));
  assert.deepEqual(outside, []);
  assert.ok(!(await modules).some((m) => /_test\.ts$|\/_testing\.ts$|_fake_/.test(m.path)));
});

/** `text` without comments and string contents, roughly: enough to find API uses. */
function code(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//g, "").replace(/\/\/.*$/gm, "")
    .replace(/(["'`])(?:\\.|(?!\1)[^\\])*\1/g, '""');
}

Deno.test("no module of the SDK uses the Deno namespace (both runtimes must run it)", async () => {
  const uses: string[] = [];
  for (const module of await modules) {
    const text = code(await Deno.readTextFile(join(REPO_ROOT, module.path)));
    if (/\bDeno\s*\./.test(text)) uses.push(module.path);
  }
  assert.deepEqual(uses, []);
});

Deno.test("the SDK's version is the one its CHANGELOG and README state, and the repository's CHANGELOG is at it or on its way", async () => {
  const own = await Deno.readTextFile(join(REPO_ROOT, SDK_DIR, "CHANGELOG.md"));
  assert.equal(own.match(/^## \[?(\d+\.\d+\.\d+[^\]\s]*)\]?/m)?.[1], SDK_CONFIG.version);
  const readme = await Deno.readTextFile(join(REPO_ROOT, SDK_DIR, "README.md"));
  assert.ok(
    readme.includes(`Version ${SDK_CONFIG.version}`),
    "packages/sdk/README.md states the version",
  );
  // The repository's releases share the SDK's version; until the release, its
  // newest entry is "Unreleased".
  const changelog = await Deno.readTextFile(join(REPO_ROOT, "CHANGELOG.md"));
  const first = changelog.match(/^## \[?([^\]\s]+)\]?/m)?.[1];
  const latest = changelog.match(/^## \[?(\d+\.\d+\.\d+[^\]\s]*)\]?/m)?.[1];
  assert.ok(
    latest === SDK_CONFIG.version || first === "Unreleased",
    `CHANGELOG.md's newest entry (${first}) is ${SDK_CONFIG.version} or Unreleased`,
  );
});

Deno.test("the SDK member is @shard-manager/sdk with the four entry points", () => {
  assert.equal(SDK_CONFIG.name, "@shard-manager/sdk");
  assert.deepEqual(Object.keys(SDK_CONFIG.exports), [".", "./executor", "./spectator", "./leader"]);
});
