/**
 * What the SDK package (`packages/sdk/`) is made of: every local module its
 * entry points load (type-only imports included, read from `deno info`), and
 * the npm packages they name. A module the SDK loads must name each package
 * by a full `npm:<name>@<range>` specifier (a project that imports the SDK by
 * path or URL does not see this repository's import map), and every range
 * must equal the one deno.json gives the package, so the server and the SDK
 * share one copy. `deno task sdk:pack` and `tests/sdk_package_test.ts` use it.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseNpmSpecifier } from "./sdk_graph.ts";
 *
 * assert.deepEqual(parseNpmSpecifier("npm:@grpc/grpc-js@^1.14.0"), {
 *   name: "@grpc/grpc-js",
 *   range: "^1.14.0",
 *   subpath: "",
 * });
 * ```
 *
 * @module
 */
import { fileURLToPath } from "node:url";
import { relative } from "node:path";
import denoConfig from "../deno.json" with { type: "json" };
import sdkConfig from "../packages/sdk/deno.json" with { type: "json" };

/** Root of the repository. */
export const REPO_ROOT: string = fileURLToPath(new URL("../", import.meta.url));

/** The SDK member's folder, relative to the repository. */
export const SDK_DIR = "packages/sdk";

/** The SDK member's deno.json: name, version and exports. */
export const SDK_CONFIG: {
  readonly name: string;
  readonly version: string;
  readonly exports: Readonly<Record<string, string>>;
} = sdkConfig;

/** A module of the SDK: its path in the repository and what it imports that is not relative. */
export interface SdkModule {
  /** Path relative to the repository root, e.g. `src/client/mod.ts`. */
  readonly path: string;
  /** Specifiers as written that are neither relative nor `node:` builtins. */
  readonly packages: readonly string[];
}

/** An `npm:` specifier, split. */
export interface NpmSpecifier {
  /** Package name, with its scope. */
  readonly name: string;
  /** Version range; `""` when none was written. */
  readonly range: string;
  /** What follows the version, e.g. `/proto-loader-gen-types`; `""` for the package itself. */
  readonly subpath: string;
}

/** Splits `npm:<name>@<range><subpath>`; undefined for anything else. */
export function parseNpmSpecifier(specifier: string): NpmSpecifier | undefined {
  const match = specifier.match(/^npm:(@[^/@]+\/[^/@]+|[^/@]+)(?:@([^/]+))?(\/.*)?$/);
  if (!match) return undefined;
  return { name: match[1]!, range: match[2] ?? "", subpath: match[3] ?? "" };
}

interface InfoModule {
  readonly specifier: string;
  readonly dependencies?: readonly { readonly specifier: string }[];
}

/**
 * Every local module that the SDK's entry points (deno.json `exports`) load,
 * sorted by path. Throws when `deno info` fails or a module lies outside the
 * repository.
 */
export async function sdkModules(): Promise<SdkModule[]> {
  const found = new Map<string, SdkModule>();
  for (const entry of Object.values(SDK_CONFIG.exports)) {
    const { code, stdout, stderr } = await new Deno.Command(Deno.execPath(), {
      args: ["info", "--json", `${SDK_DIR}/${entry}`],
      cwd: REPO_ROOT,
      stdout: "piped",
      stderr: "piped",
    }).output();
    if (code !== 0) {
      throw new Error(`deno info ${SDK_DIR}/${entry} failed:\n${new TextDecoder().decode(stderr)}`);
    }
    const info = JSON.parse(new TextDecoder().decode(stdout)) as { modules: InfoModule[] };
    for (const module of info.modules) {
      if (!module.specifier.startsWith("file:")) continue;
      const path = relative(REPO_ROOT, fileURLToPath(module.specifier));
      if (path.startsWith("..")) {
        throw new Error(`The SDK loads ${module.specifier}, outside the repository`);
      }
      const packages = (module.dependencies ?? []).map((d) => d.specifier)
        .filter((s) => !s.startsWith(".") && !s.startsWith("node:"));
      found.set(path, { path, packages: [...new Set(packages)].sort() });
    }
  }
  return [...found.values()].sort((a, b) => a.path.localeCompare(b.path));
}

/**
 * The npm packages `modules` import, name → range, and what is wrong with
 * how they name them: a bare or `jsr:`/URL specifier, a missing range, or a
 * range other than deno.json's (or two ranges for one package).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { sdkPackages } from "./sdk_graph.ts";
 *
 * const { packages, problems } = sdkPackages([
 *   { path: "src/a.ts", packages: ["npm:@grpc/grpc-js@^1.14.0"] },
 *   { path: "src/b.ts", packages: ["@grpc/grpc-js"] },
 * ]);
 * assert.deepEqual(packages, { "@grpc/grpc-js": "^1.14.0" });
 * assert.equal(problems.length, 1);
 * assert.match(problems[0]!, /src\/b.ts imports "@grpc\/grpc-js"/);
 * ```
 */
export function sdkPackages(
  modules: readonly SdkModule[],
): { packages: Record<string, string>; problems: string[] } {
  const imports: Record<string, string> = denoConfig.imports;
  const packages: Record<string, string> = {};
  const problems: string[] = [];
  for (const module of modules) {
    for (const specifier of module.packages) {
      const npm = parseNpmSpecifier(specifier);
      if (npm === undefined || npm.range === "") {
        problems.push(
          `${module.path} imports "${specifier}": name npm packages as npm:<name>@<range> ` +
            `(the SDK is imported from projects without this repository's import map)`,
        );
        continue;
      }
      const pinned = parseNpmSpecifier(imports[npm.name] ?? "");
      if (pinned?.range !== npm.range) {
        problems.push(
          `${module.path} imports ${npm.name}@${npm.range}, but deno.json's imports give ${
            imports[npm.name] ?? "nothing"
          }: use the same range`,
        );
      }
      const seen = packages[npm.name];
      if (seen !== undefined && seen !== npm.range) {
        problems.push(`${npm.name} is imported both as ${seen} and as ${npm.range}`);
      }
      packages[npm.name] = seen ?? npm.range;
    }
  }
  return { packages, problems };
}
