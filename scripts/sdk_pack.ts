/**
 * `deno task sdk:pack`: builds the npm package of the SDKs,
 * `dist/shard-manager-sdk-<version>.tgz`, from the SDK member
 * (`packages/sdk/`) and checks it with `@arethetypeswrong/cli`.
 *
 * 1. The modules the member's entry points load (`sdk_graph.ts`) are copied
 *    into a staging folder in the repository's layout, their `npm:`
 *    specifiers rewritten to bare package names.
 * 2. `npm install --ignore-scripts` there fetches the SDK's dependencies and
 *    the build tools (`BUILD_TOOLS`, exact versions); TypeScript's `tsc`
 *    compiles ESM JavaScript and `.d.ts` declarations.
 * 3. esbuild bundles the JavaScript with `@grpc/grpc-js` and protobuf.js
 *    (`sdk_bundle.ts`): the package has no run-time dependency, so installing
 *    it installs one package and runs no install script. The declarations of
 *    the packages the SDK's types name go under `dist/vendor/`, and their
 *    licences into THIRD_PARTY_LICENSES.
 * 4. The package gets its `package.json` (`sdk_manifest.ts`), the member's
 *    README.md, CHANGELOG.md and LICENSE; `npm pack` writes the tarball.
 * 5. `attw --profile esm-only` checks that every entry point's types resolve
 *    under Node.js's `node16`/`nodenext` and bundler resolution (the package
 *    is ESM; Node.js 20.19+ can also `require()` it). Skip it with
 *    `--no-check`.
 *
 * Needs Node.js and npm, and the npm registry.
 *
 * @example
 * ```sh
 * deno task sdk:pack                 # dist/shard-manager-sdk-<version>.tgz, checked
 * deno task sdk:pack --out-dir /tmp  # elsewhere
 * ```
 *
 * @module
 */
import { parseArgs } from "node:util";
import { dirname, join, resolve } from "node:path";
import { REPO_ROOT, SDK_CONFIG, SDK_DIR, sdkModules, sdkPackages } from "./sdk_graph.ts";
import {
  BUILD_TOOLS,
  buildConfig,
  PACKAGE_FILES,
  packageManifest,
  tarballName,
  withNodeSpecifiers,
} from "./sdk_manifest.ts";
import { bundleArgs, thirdPartyLicenses, vendorDeclarations } from "./sdk_bundle.ts";

/** What {@linkcode packSdk} did. */
export interface PackResult {
  /** Absolute path of the tarball. */
  readonly tarball: string;
  /** The types check's report; undefined when it was skipped. */
  readonly check?: string;
}

/** Runs `command` in `cwd`; throws with its output when it fails. Returns stdout. */
async function run(command: string, args: readonly string[], cwd: string): Promise<string> {
  const { code, stdout, stderr } = await new Deno.Command(command, {
    args: [...args],
    cwd,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
    env: { NO_COLOR: "1", npm_config_update_notifier: "false" },
  }).output().catch((error) => {
    throw new Error(`Cannot run ${command}: ${(error as Error).message} (is it installed?)`);
  });
  const text = new TextDecoder();
  if (code !== 0) {
    throw new Error(
      `${command} ${args.join(" ")} exited with code ${code}:\n${text.decode(stdout)}${
        text.decode(stderr)
      }`,
    );
  }
  return text.decode(stdout);
}

/** Copies the SDK's modules into `stage/src/`, with npm specifiers Node.js resolves. */
async function stageSources(stage: string): Promise<Record<string, string>> {
  const modules = await sdkModules();
  const { packages, problems } = sdkPackages(modules);
  if (problems.length > 0) throw new Error(`The SDK cannot be packed:\n  ${problems.join("\n  ")}`);
  for (const module of modules) {
    const target = join(stage, "src", module.path);
    await Deno.mkdir(dirname(target), { recursive: true });
    const text = await Deno.readTextFile(join(REPO_ROOT, module.path));
    await Deno.writeTextFile(target, withNodeSpecifiers(text));
  }
  return packages;
}

/**
 * Builds the tarball into `outDir` (created if missing) and, unless `check`
 * is false, checks it with `attw`. Throws, naming the step, when one fails.
 */
export async function packSdk(outDir: string, check = true): Promise<PackResult> {
  const stage = await Deno.makeTempDir({ prefix: "sm-sdk-pack-" });
  try {
    const dependencies = await stageSources(stage);
    await Deno.writeTextFile(
      join(stage, "package.json"),
      JSON.stringify(
        { private: true, type: "module", dependencies, devDependencies: BUILD_TOOLS },
        null,
        2,
      ),
    );
    await run("npm", ["install", "--no-audit", "--no-fund", "--ignore-scripts"], stage);
    const packageDir = join(stage, "package");
    const entries = Object.values(SDK_CONFIG.exports).map((entry) =>
      join("src", SDK_DIR, entry.replace(/^\.\//, ""))
    );
    await Deno.writeTextFile(
      join(stage, "tsconfig.json"),
      JSON.stringify(
        buildConfig(entries, join(stage, "build"), join(packageDir, "dist")),
        null,
        2,
      ),
    );
    await run(
      "node",
      [join(stage, "node_modules/typescript/bin/tsc"), "-p", "tsconfig.json"],
      stage,
    );
    const compiled = entries.map((entry) =>
      join("build", entry.replace(/^src\//, "").replace(/\.ts$/, ".js"))
    );
    await run(
      "node",
      [
        join(stage, "node_modules/esbuild/bin/esbuild"),
        ...bundleArgs(compiled, "build", join(packageDir, "dist")),
      ],
      stage,
    );
    await vendorDeclarations(stage, join(packageDir, "dist"));
    await Deno.writeTextFile(
      join(packageDir, "THIRD_PARTY_LICENSES"),
      await thirdPartyLicenses(stage, join(stage, "bundle-meta.json")),
    );
    const manifest = packageManifest(SDK_CONFIG, SDK_DIR);
    await Deno.writeTextFile(
      join(packageDir, "package.json"),
      JSON.stringify(manifest, null, 2) + "\n",
    );
    for (const file of PACKAGE_FILES.filter((f) => f !== "THIRD_PARTY_LICENSES")) {
      await Deno.copyFile(join(REPO_ROOT, SDK_DIR, file), join(packageDir, file));
    }
    await Deno.mkdir(outDir, { recursive: true });
    await run("npm", ["pack", "--pack-destination", outDir], packageDir);
    const tarball = join(outDir, tarballName(SDK_CONFIG.name, SDK_CONFIG.version));
    await Deno.stat(tarball);
    if (!check) return { tarball };
    const attw = join(stage, "node_modules/@arethetypeswrong/cli/dist/index.js");
    const report = await run("node", [attw, tarball, "--profile", "esm-only"], stage);
    return { tarball, check: report };
  } finally {
    await Deno.remove(stage, { recursive: true }).catch(() => {});
  }
}

if (import.meta.main) {
  const { values } = parseArgs({
    args: Deno.args,
    options: { "out-dir": { type: "string" }, "no-check": { type: "boolean" } },
  });
  const outDir = resolve(values["out-dir"] ?? join(REPO_ROOT, "dist"));
  const { tarball, check } = await packSdk(outDir, !values["no-check"]);
  // deno-lint-ignore no-console -- a CLI reporting what it did
  if (check !== undefined) console.log(check.trimEnd());
  // deno-lint-ignore no-console -- a CLI reporting what it did
  console.log(`Packed ${tarball}${check === undefined ? " (types check skipped)" : ""}`);
}
