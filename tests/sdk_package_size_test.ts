/**
 * Issue 39, a lean and publishable package: `deno task sdk:pack`'s tarball,
 * installed alone into an empty npm project, brings at most 12 packages and
 * 8 MB of node_modules and no install-script warning; it holds a
 * self-contained README (no relative links), its CHANGELOG, LICENSE and the
 * bundled packages' licences; `npm publish --dry-run` is clean; it loads by
 * `import` and by `require()` (this Node.js is 20.19+) with the same exports;
 * and its declarations type-check in a strict TypeScript project without
 * `skipLibCheck`. (tests/sdk_node_project_test.ts runs the scenario on it.)
 *
 * Needs `node` and `npm` (and the npm registry); without them the test is
 * skipped, except under CI (`CI` set), where it fails.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { packSdk } from "../scripts/sdk_pack.ts";
import { SDK_CONFIG, SDK_DIR } from "../scripts/sdk_graph.ts";
import { OPTIONAL_PEERS, REPOSITORY_URL } from "../scripts/sdk_manifest.ts";
import { runIn } from "./support/sdk_project.ts";
import { missingTools } from "./support/tools.ts";

/** The goal of issue 39 for the package installed alone. */
const MAX_PACKAGES = 12;
const MAX_BYTES = 8_000_000;

const missing = missingTools(["node", "npm"]);

async function treeBytes(dir: string): Promise<number> {
  let total = 0;
  for await (const entry of Deno.readDir(dir)) {
    const path = join(dir, entry.name);
    if (entry.isDirectory) total += await treeBytes(path);
    else if (entry.isFile) total += (await Deno.stat(path)).size;
  }
  return total;
}

Deno.test("the package's README links only to absolute URLs of the repository", async () => {
  const readme = await Deno.readTextFile(join(SDK_DIR, "README.md"));
  const links = [...readme.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]!);
  assert.ok(links.length > 0);
  const local = links.filter((link) => !/^https?:\/\//.test(link) && !link.startsWith("#"));
  assert.deepEqual(local, [], "relative links are dead inside node_modules");
  for (const link of links.filter((l) => l.includes("github.com"))) {
    assert.ok(link.startsWith(REPOSITORY_URL), `${link} is under ${REPOSITORY_URL}`);
  }
  const changelog = await Deno.readTextFile(join(SDK_DIR, "CHANGELOG.md"));
  assert.equal(changelog.match(/^## (\d+\.\d+\.\d+)/m)?.[1], SDK_CONFIG.version);
});

Deno.test({
  name:
    `the packed SDK installed alone brings at most ${MAX_PACKAGES} packages and ${
      MAX_BYTES / 1e6
    } MB, runs no install script, and loads by import, require() and tsc` +
    (missing.length > 0 ? ` (skipped: ${missing.join(" and ")} not found)` : ""),
  ignore: missing.length > 0 && !Deno.env.get("CI"),
  async fn(t) {
    const dir = await Deno.makeTempDir({ prefix: "sm-sdk-size-" });
    try {
      const { tarball } = await packSdk(dir, false);
      const project = join(dir, "app");
      await Deno.mkdir(project);
      await Deno.writeTextFile(
        join(project, "package.json"),
        JSON.stringify({ name: "size-probe", private: true, type: "module" }),
      );
      const installed = await runIn(project, "npm", [
        "install",
        "--no-audit",
        "--no-fund",
        tarball,
      ]);
      assert.equal(installed.code, 0, installed.output);

      await t.step("installed alone: packages, bytes, no install-script warning", async () => {
        const lock = JSON.parse(await Deno.readTextFile(join(project, "package-lock.json")));
        const packages = Object.keys(lock.packages).filter((key) => key !== "");
        const bytes = await treeBytes(join(project, "node_modules"));
        assert.ok(packages.length <= MAX_PACKAGES, `${packages.length} packages: ${packages}`);
        assert.ok(bytes <= MAX_BYTES, `${bytes} bytes of node_modules`);
        assert.doesNotMatch(installed.output, /install-scripts|install script|postinstall/i);
        assert.doesNotMatch(installed.output, /npm warn/i, installed.output);
      });

      const installedDir = join(project, "node_modules", ...SDK_CONFIG.name.split("/"));
      await t.step("the tarball: manifest, README, CHANGELOG, licences", async () => {
        const manifest = JSON.parse(await Deno.readTextFile(join(installedDir, "package.json")));
        assert.equal(manifest.version, SDK_CONFIG.version);
        assert.equal(manifest.license, "MIT");
        assert.match(manifest.repository.url, new RegExp(REPOSITORY_URL.replace(/\./g, "\\.")));
        assert.ok(manifest.homepage.startsWith(REPOSITORY_URL));
        assert.equal(manifest.dependencies, undefined, "gRPC and protobuf.js are bundled");
        assert.deepEqual(manifest.peerDependencies, OPTIONAL_PEERS);
        assert.deepEqual(manifest.peerDependenciesMeta, {
          "@opentelemetry/api": { optional: true },
        });
        for (const file of ["README.md", "CHANGELOG.md", "LICENSE", "THIRD_PARTY_LICENSES"]) {
          assert.ok((await Deno.stat(join(installedDir, file))).isFile, file);
        }
        const licences = await Deno.readTextFile(join(installedDir, "THIRD_PARTY_LICENSES"));
        assert.match(licences, /@grpc\/grpc-js@\S+ \(Apache-2\.0\)\s+Apache License/);
        assert.match(licences, /protobufjs@\S+ \(BSD-3-Clause\)/);
      });

      await t.step("npm publish --dry-run prints no warning", async () => {
        const published = await runIn(installedDir, "npm", ["publish", "--dry-run"]);
        assert.equal(published.code, 0, published.output);
        // Only being logged in to the registry is left to the person who publishes.
        const warnings = published.output.split("\n").filter((line) => /npm warn/i.test(line))
          .filter((line) => !/requires you to be logged in/.test(line));
        assert.deepEqual(warnings, [], published.output);
      });

      await t.step("import and require() give the same exports", async () => {
        const script = `import { createRequire } from "node:module";
const esm = Object.keys(await import("${SDK_CONFIG.name}")).sort();
const cjs = Object.keys(createRequire(import.meta.url)("${SDK_CONFIG.name}")).sort();
console.log(JSON.stringify({ esm, cjs }));`;
        await Deno.writeTextFile(join(project, "probe.mjs"), script);
        const probed = await runIn(project, "node", ["probe.mjs"]);
        assert.equal(probed.code, 0, probed.output);
        const { esm, cjs } = JSON.parse(probed.output.trim().split("\n").at(-1)!);
        assert.ok(esm.length > 0);
        assert.deepEqual(
          cjs.filter((k: string) => k !== "__esModule" && k !== "module.exports"),
          esm,
        );
      });

      await t.step("the declarations type-check with tsc, skipLibCheck off", async () => {
        const tools = await runIn(project, "npm", [
          "install",
          "--no-audit",
          "--no-fund",
          "typescript@6.0.3",
          "@types/node@20.19.43",
        ]);
        assert.equal(tools.code, 0, tools.output);
        await Deno.writeTextFile(
          join(project, "tsconfig.json"),
          JSON.stringify({
            compilerOptions: {
              module: "nodenext",
              target: "es2022",
              strict: true,
              noEmit: true,
              skipLibCheck: false,
              types: ["node"],
            },
            files: ["main.ts"],
          }),
        );
        await Deno.writeTextFile(
          join(project, "main.ts"),
          Object.keys(SDK_CONFIG.exports).map((subpath, i) =>
            `import * as entry${i} from "${SDK_CONFIG.name}${subpath.slice(1)}";\n` +
            `export const keys${i}: string[] = Object.keys(entry${i});\n`
          ).join(""),
        );
        const checked = await runIn(project, "node", [
          "node_modules/typescript/bin/tsc",
          "-p",
          ".",
        ]);
        assert.equal(checked.code, 0, checked.output);
      });
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});
