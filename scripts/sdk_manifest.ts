/**
 * The npm package's pieces that follow from the SDK member's deno.json:
 * its `package.json`, the TypeScript configuration that compiles the staged
 * sources, the rewrite of `npm:` specifiers into the bare names Node.js
 * resolves, and the tarball's name. Pure; `scripts/sdk_pack.ts` runs them.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { tarballName } from "./sdk_manifest.ts";
 *
 * assert.equal(tarballName("@shard-manager/sdk", "0.1.0"), "shard-manager-sdk-0.1.0.tgz");
 * ```
 *
 * @module
 */

/**
 * The build tools, at exact versions (installed from npm into the staging
 * folder only): TypeScript, the Node.js types for the oldest Node.js the
 * package supports, and the types check.
 */
export const BUILD_TOOLS: Readonly<Record<string, string>> = Object.freeze({
  "typescript": "6.0.3",
  "@types/node": "20.19.43",
  "@arethetypeswrong/cli": "0.18.5",
  "esbuild": "0.28.2",
});

/**
 * Where the project lives: the package's `repository` and `homepage`, and the
 * base of every link in the package's README (which must work inside
 * `node_modules`, where `../../docs` does not exist).
 */
export const REPOSITORY_URL = "https://github.com/shard-manager/shard-manager";

/** The package's `peerDependencies`: optional, loaded only when the application has them. */
export const OPTIONAL_PEERS: Readonly<Record<string, string>> = Object.freeze({
  "@opentelemetry/api": "^1.9.0",
});

/** The files the tarball holds besides `dist/`, copied from the SDK member. */
export const PACKAGE_FILES: readonly string[] = [
  "README.md",
  "CHANGELOG.md",
  "LICENSE",
  "THIRD_PARTY_LICENSES",
];

/** The Node.js versions the package supports (`engines.node`). */
export const NODE_ENGINES = ">=20.19";

/** The package's one-line description. */
export const DESCRIPTION =
  "Executor, spectator and leader-selector SDKs for Shard Manager (Cadence's shard distributor protocol)";

/** Where a staged module's compiled files go: `src/client/mod.ts` → `dist/src/client/mod`. */
function distBase(path: string): string {
  return `./dist/${path.replace(/^\.\//, "").replace(/\.ts$/, "")}`;
}

/**
 * The `package.json` of the npm package: ESM only, one `exports` entry per
 * deno.json export (types first), no run-time dependencies (gRPC and
 * protobuf.js are bundled, see `sdk_bundle.ts`), `@opentelemetry/api` as an
 * optional peer, and where the project lives.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { packageManifest } from "./sdk_manifest.ts";
 *
 * const manifest = packageManifest(
 *   { name: "@shard-manager/sdk", version: "0.1.0", exports: { ".": "./mod.ts" } },
 *   "packages/sdk",
 * );
 * assert.deepEqual(manifest.exports, {
 *   ".": { types: "./dist/packages/sdk/mod.d.ts", default: "./dist/packages/sdk/mod.js" },
 *   "./package.json": "./package.json",
 * });
 * assert.equal(manifest.type, "module");
 * assert.equal(manifest.dependencies, undefined);
 * assert.deepEqual(manifest.peerDependenciesMeta, { "@opentelemetry/api": { optional: true } });
 * ```
 */
export function packageManifest(
  config: {
    readonly name: string;
    readonly version: string;
    readonly exports: Readonly<Record<string, string>>;
  },
  memberDir: string,
): Record<string, unknown> & { exports: Record<string, unknown>; type: string } {
  const exports: Record<string, unknown> = {};
  for (const [subpath, entry] of Object.entries(config.exports)) {
    const base = distBase(`${memberDir}/${entry.replace(/^\.\//, "")}`);
    exports[subpath] = { types: `${base}.d.ts`, default: `${base}.js` };
  }
  exports["./package.json"] = "./package.json";
  const main = exports["."] as { types: string; default: string } | undefined;
  return {
    name: config.name,
    version: config.version,
    description: DESCRIPTION,
    license: "MIT",
    repository: { type: "git", url: `git+${REPOSITORY_URL}.git`, directory: memberDir },
    homepage: `${REPOSITORY_URL}/tree/main/${memberDir}#readme`,
    bugs: { url: `${REPOSITORY_URL}/issues` },
    type: "module",
    exports,
    ...(main ? { main: main.default, types: main.types } : {}),
    files: ["dist/", ...PACKAGE_FILES],
    engines: { node: NODE_ENGINES },
    publishConfig: { access: "public" },
    peerDependencies: { ...OPTIONAL_PEERS },
    peerDependenciesMeta: Object.fromEntries(
      Object.keys(OPTIONAL_PEERS).map((name) => [name, { optional: true }]),
    ),
    keywords: ["shard-manager", "cadence", "shard-distributor", "grpc", "sharding"],
  };
}

/**
 * The `tsconfig.json` that compiles the staged sources (`src/`, repository
 * layout) to ESM JavaScript in `outDir` (which esbuild then bundles) and
 * declarations in `declarationDir` (default `outDir`): the strictness of
 * deno.json, Node.js's module resolution, and `.ts` import extensions
 * rewritten to `.js`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { buildConfig } from "./sdk_manifest.ts";
 *
 * const config = buildConfig(["src/packages/sdk/mod.ts"], "package/dist");
 * assert.equal(config.compilerOptions.declaration, true);
 * ```
 */
export function buildConfig(
  files: readonly string[],
  outDir: string,
  declarationDir: string = outDir,
): { compilerOptions: Record<string, unknown>; files: readonly string[] } {
  return {
    compilerOptions: {
      target: "ES2022",
      lib: ["ES2023", "ESNext.Disposable"],
      types: ["node"],
      module: "NodeNext",
      moduleResolution: "NodeNext",
      rewriteRelativeImportExtensions: true,
      declaration: true,
      declarationDir,
      rootDir: "src",
      outDir,
      strict: true,
      noUncheckedIndexedAccess: true,
      exactOptionalPropertyTypes: true,
      noImplicitOverride: true,
      noImplicitReturns: true,
      noFallthroughCasesInSwitch: true,
      skipLibCheck: true,
      newLine: "lf",
    },
    files,
  };
}

/**
 * `text` with each quoted `npm:<name>@<range><subpath>` replaced by
 * `<name><subpath>`, the form Node.js resolves from `node_modules`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { withNodeSpecifiers } from "./sdk_manifest.ts";
 *
 * assert.equal(
 *   withNodeSpecifiers(`export * as grpc from "npm:@grpc/grpc-js@^1.14.0";`),
 *   `export * as grpc from "@grpc/grpc-js";`,
 * );
 * assert.equal(withNodeSpecifiers(`from 'npm:yaml@^2.8.0/util'`), `from 'yaml/util'`);
 * ```
 */
export function withNodeSpecifiers(text: string): string {
  return text.replace(
    /(["'])npm:(@[^/@"']+\/[^/@"']+|[^/@"']+)(?:@[^/"']+)?(\/[^"']*)?\1/g,
    (_whole, quote: string, name: string, subpath: string | undefined) =>
      `${quote}${name}${subpath ?? ""}${quote}`,
  );
}

/** The file `npm pack` writes for a package: scope and name joined by `-`, then the version. */
export function tarballName(name: string, version: string): string {
  return `${name.replace(/^@/, "").replace("/", "-")}-${version}.tgz`;
}
