/**
 * The SDK as another Deno project uses it: a fresh folder outside this
 * repository, with no deno.json and no import map, whose files import
 * `packages/sdk/` by relative path. Its code type-checks with `deno check`,
 * and its scenario (tests/support/sdk_project/scenario.mjs: an executor gets
 * the shards, the spectator routes to it, a SIGTERM drain moves them, SIGTERM
 * stops cleanly) passes under `deno test` against a real service on a real
 * etcd, the executors running with only `--allow-net --allow-env`.
 */
import assert from "node:assert/strict";
import { denoBinary } from "./support/deno_bin.ts";
import { runIn, sdkPathFrom, startScenarioService, writeScenario } from "./support/sdk_project.ts";

Deno.test("a fresh Deno project imports the SDK by path and runs an executor and a spectator", async () => {
  const dir = await Deno.makeTempDir({ prefix: "sm-sdk-deno-app-" });
  await using service = await startScenarioService();
  try {
    await writeScenario(dir, (entry) => sdkPathFrom(dir, entry));
    const scenario = await Deno.readTextFile(`${dir}/scenario.test.mjs`);
    assert.match(scenario, /from "\.\.\/[^"]*packages\/sdk\/spectator\.ts"/, "imported by path");
    const deno = denoBinary();
    // No config anywhere above the project: the SDK must resolve its packages itself.
    const checked = await runIn(dir, deno, ["check", "executor_app.mjs", "scenario.test.mjs"]);
    assert.equal(checked.code, 0, `deno check failed:\n${checked.output}`);
    const ran = await runIn(
      dir,
      deno,
      ["test", "--allow-net", "--allow-env", "--allow-run", "--allow-read", "scenario.test.mjs"],
      service.env,
    );
    assert.equal(ran.code, 0, `deno test failed:\n${ran.output}`);
    assert.match(ran.output, /ok \| 1 passed/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
