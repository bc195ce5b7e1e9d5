/**
 * The SDK as another Deno project uses it: a fresh folder outside this
 * repository, with no deno.json and no import map, whose files import
 * `packages/sdk/` by relative path. Its code type-checks with `deno check`,
 * and its scenario (tests/support/sdk_project/scenario.mjs: an executor gets
 * the shards, the spectator routes to it, a SIGTERM drain moves them, SIGTERM
 * stops cleanly) passes under `deno test` against a real service on a real
 * etcd, the executors running with only `--allow-net --allow-env`; so do the
 * failures of tests/support/sdk_project/failures.mjs (a wrong namespace, the
 * HTTP port, a URL, a bad port: each fails within 2 s with its `code`). And the
 * same package imported by URL (the repository served over HTTP) into a
 * project with an empty Deno cache loads and runs.
 */
import assert from "node:assert/strict";
import { denoBinary } from "./support/deno_bin.ts";
import {
  runIn,
  SCENARIO_TESTS,
  sdkPathFrom,
  startScenarioService,
  writeScenario,
} from "./support/sdk_project.ts";

Deno.test("a fresh Deno project imports the SDK by path and runs an executor and a spectator", async () => {
  const dir = await Deno.makeTempDir({ prefix: "sm-sdk-deno-app-" });
  await using service = await startScenarioService();
  try {
    await writeScenario(dir, (entry) => sdkPathFrom(dir, entry));
    const scenario = await Deno.readTextFile(`${dir}/scenario.test.mjs`);
    assert.match(scenario, /from "\.\.\/[^"]*packages\/sdk\/spectator\.ts"/, "imported by path");
    const deno = denoBinary();
    // No config anywhere above the project: the SDK must resolve its packages itself.
    const checked = await runIn(dir, deno, ["check", "executor_app.mjs", ...SCENARIO_TESTS.files]);
    assert.equal(checked.code, 0, `deno check failed:\n${checked.output}`);
    const ran = await runIn(
      dir,
      deno,
      [
        "test",
        "--allow-net",
        "--allow-env",
        "--allow-run",
        "--allow-read",
        ...SCENARIO_TESTS.files,
      ],
      service.env,
    );
    assert.equal(ran.code, 0, `deno test failed:\n${ran.output}`);
    assert.match(ran.output, new RegExp(`ok \\| ${SCENARIO_TESTS.count} passed`));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a Deno project imports the SDK by URL, on a machine with nothing cached", async () => {
  const dir = await Deno.makeTempDir({ prefix: "sm-sdk-deno-url-" });
  const root = new URL("../", import.meta.url);
  // The repository's files over HTTP, as a git host serves them raw.
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (request) => {
    const path = decodeURIComponent(new URL(request.url).pathname).slice(1);
    if (path.includes("..") || !/^(packages|src)\//.test(path)) {
      return new Response(null, { status: 404 });
    }
    try {
      return new Response(await Deno.readFile(new URL(path, root)), {
        headers: { "content-type": "application/typescript; charset=utf-8" },
      });
    } catch {
      return new Response(null, { status: 404 });
    }
  });
  const host = `127.0.0.1:${server.addr.port}`;
  try {
    await Deno.writeTextFile(
      `${dir}/main.ts`,
      `import { createSpectator, Executor, ownerSet } from "http://${host}/packages/sdk/mod.ts";
const executor = new Executor({ addresses: ["127.0.0.1:1"], namespace: "orders", processor: () => {} });
const spectator = createSpectator({ addresses: ["127.0.0.1:1"], namespace: "orders" });
await spectator.close();
console.log(JSON.stringify({ id: executor.id, owners: ownerSet(1, "k", [{ id: "a" }, { id: "b" }], 2).length }));
`,
    );
    // A DENO_DIR of its own: the SDK's npm packages come from the registry, as on a fresh machine.
    // --allow-import only because the host is not one Deno trusts by default (raw.githubusercontent.com is).
    const ran = await runIn(
      dir,
      denoBinary(),
      ["run", `--allow-import=${host}`, "--allow-net", "--allow-env", "main.ts"],
      { DENO_DIR: `${dir}/deno_dir` },
    );
    assert.equal(ran.code, 0, `deno run failed:\n${ran.output}`);
    const line = JSON.parse(ran.output.split("\n").find((l) => l.startsWith("{")) ?? "{}");
    assert.match(line.id, /^executor-[0-9a-f]{8}$/, "no --allow-sys: the generic id prefix");
    assert.equal(line.owners, 2);
  } finally {
    await server.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
});
