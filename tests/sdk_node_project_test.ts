/**
 * The SDK as a Node.js project uses it: `deno task sdk:pack`'s tarball
 * (checked by `@arethetypeswrong/cli` on the way), installed with
 * `npm install ./shard-manager-sdk-<version>.tgz` into a fresh project, and
 * the scenario of tests/support/sdk_project/ (an executor gets the shards,
 * the spectator routes to it, a SIGTERM drain moves them, SIGTERM stops
 * cleanly) run by `node --test` against a real service on a real etcd, and
 * its failures (failures.mjs: a wrong namespace, the HTTP port, a URL, a bad
 * port, each failing within 2 s with its documented `code`).
 *
 * Needs `node` and `npm` (and the npm registry); without them the test is
 * skipped, except under CI (`CI` set), where it fails.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { packSdk } from "../scripts/sdk_pack.ts";
import { SDK_CONFIG } from "../scripts/sdk_graph.ts";
import {
  runIn,
  SCENARIO_TESTS,
  SDK_ENTRIES,
  startScenarioService,
  writeScenario,
} from "./support/sdk_project.ts";
import { missingTools } from "./support/tools.ts";

const missing = missingTools(["node", "npm"]);

Deno.test({
  name:
    "the packed SDK installs into a fresh Node.js project and passes the scenario under node --test" +
    (missing.length > 0 ? ` (skipped: ${missing.join(" and ")} not found)` : ""),
  ignore: missing.length > 0 && !Deno.env.get("CI"),
  async fn() {
    const dir = await Deno.makeTempDir({ prefix: "sm-sdk-node-app-" });
    try {
      const { tarball, check } = await packSdk(dir); // throws if attw finds a problem
      for (const subpath of Object.values(SDK_ENTRIES)) {
        const name = `"${SDK_CONFIG.name}${subpath.slice(1)}"`;
        const section = check?.split(name)[1]?.split("***")[0] ?? "";
        assert.match(
          section,
          /node16 \(from ESM\): 🟢 \(ESM\)\s+bundler: 🟢/,
          `attw on ${name}:\n${check}`,
        );
      }
      const file = `shard-manager-sdk-${SDK_CONFIG.version}.tgz`;
      assert.equal(tarball, join(dir, file));
      const project = join(dir, "app");
      await Deno.mkdir(project);
      await Deno.writeTextFile(
        join(project, "package.json"),
        JSON.stringify({ name: "orders-app", private: true, type: "module" }, null, 2),
      );
      const installed = await runIn(project, "npm", [
        "install",
        "--no-audit",
        "--no-fund",
        `../${file}`,
      ]);
      assert.equal(installed.code, 0, `npm install failed:\n${installed.output}`);
      await writeScenario(project, (entry) => `${SDK_CONFIG.name}${SDK_ENTRIES[entry]!.slice(1)}`);
      const scenario = await Deno.readTextFile(join(project, "scenario.test.mjs"));
      assert.match(scenario, /from "@shard-manager\/sdk\/spectator"/);
      await using service = await startScenarioService();
      const ran = await runIn(project, "node", ["--test", ...SCENARIO_TESTS.files], service.env);
      assert.equal(ran.code, 0, `node --test failed:\n${ran.output}`);
      assert.match(ran.output, new RegExp(`# pass ${SCENARIO_TESTS.count}\\b`));
      assert.match(ran.output, /# fail 0\b/);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});
