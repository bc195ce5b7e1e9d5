/**
 * How the npm package carries its dependencies inside, so that installing it
 * installs nothing else (`deno task sdk:pack` runs these steps; the figures
 * behind the choice are in BENCHMARKS.md, "Protobuf codec for the SDK"):
 *
 * - **JavaScript**: esbuild bundles each entry point with `@grpc/grpc-js` and
 *   protobuf.js into ES modules with shared chunks (one copy of each library
 *   however many entry points an application imports). `@grpc/proto-loader`
 *   stays out: grpc-js loads it only for its channelz and ORCA admin
 *   services, which a client never starts.
 * - **Types**: the declarations of the packages the SDK's declarations name
 *   (`@grpc/grpc-js` for channel options and credentials, and what those
 *   name) are copied under `dist/vendor/` and the imports pointed there
 *   (optional peers excepted).
 *   They use Node.js's own types (`http2`, `tls`, ...), which TypeScript
 *   projects for Node.js have from `@types/node`.
 * - **Licences**: THIRD_PARTY_LICENSES holds the licence text of every
 *   package in the bundle (grpc-js is Apache-2.0, protobuf.js BSD-3-Clause).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { BUNDLE_EXTERNAL, bundleArgs } from "./sdk_bundle.ts";
 *
 * const args = bundleArgs(["build/packages/sdk/mod.js"], "build", "package/dist");
 * assert.ok(args.includes("--splitting"));
 * assert.ok(args.includes(`--external:${BUNDLE_EXTERNAL[0]}`));
 * ```
 *
 * @module
 */
import { dirname, join, relative } from "node:path";
import { OPTIONAL_PEERS } from "./sdk_manifest.ts";

/**
 * Packages left out of the bundle: `@grpc/proto-loader`, which grpc-js loads
 * lazily for server admin services only, and the optional peers
 * (`OPTIONAL_PEERS`), which the SDK imports dynamically from the
 * application's own `node_modules` when it has them.
 */
export const BUNDLE_EXTERNAL: readonly string[] = [
  "@grpc/proto-loader",
  ...Object.keys(OPTIONAL_PEERS),
];

/** The oldest Node.js the bundle's syntax targets. */
export const BUNDLE_TARGET = "node20";

/**
 * Every output module starts with a `require` of its own, so that the CommonJS
 * code bundled inside (grpc-js, protobuf.js) can still load Node.js's built-in
 * modules from an ES module.
 */
export const BUNDLE_BANNER =
  'import { createRequire as __smCreateRequire } from "node:module"; const require = __smCreateRequire(import.meta.url);';

/** esbuild's command-line arguments for the entry points `entries` (paths under `outbase`). */
export function bundleArgs(entries: readonly string[], outbase: string, outdir: string): string[] {
  return [
    ...entries,
    "--bundle",
    "--splitting",
    "--format=esm",
    "--platform=node",
    `--target=${BUNDLE_TARGET}`,
    `--outbase=${outbase}`,
    `--outdir=${outdir}`,
    "--chunk-names=chunks/[name]-[hash]",
    "--legal-comments=none", // the licences are in THIRD_PARTY_LICENSES, whole
    `--banner:js=${BUNDLE_BANNER}`,
    "--metafile=bundle-meta.json",
    "--log-level=warning",
    ...BUNDLE_EXTERNAL.map((name) => `--external:${name}`),
  ];
}

/** `path`'s package under `node_modules/` (scope included), or undefined. */
export function packageOf(path: string): string | undefined {
  const match = path.match(/(?:^|\/)node_modules\/((?:@[^/]+\/)?[^/]+)\//g);
  const last = match?.at(-1);
  return last?.replace(/^\/?node_modules\//, "").replace(/\/$/, "");
}

/**
 * THIRD_PARTY_LICENSES for the packages the bundle holds (`metafile`'s inputs
 * under `stage/node_modules/`): name, version, licence, and the licence file.
 * Throws when a package has no licence file.
 */
export async function thirdPartyLicenses(stage: string, metafile: string): Promise<string> {
  const meta = JSON.parse(await Deno.readTextFile(metafile)) as {
    inputs: Record<string, unknown>;
  };
  const names = [...new Set(Object.keys(meta.inputs).map(packageOf).filter((n) => n !== undefined))]
    .sort();
  const parts = [
    "The files under dist/ bundle the following packages. Their licences follow.\n",
  ];
  for (const name of names) {
    const dir = join(stage, "node_modules", name);
    const manifest = JSON.parse(await Deno.readTextFile(join(dir, "package.json")));
    const file = [...Deno.readDirSync(dir)].map((e) => e.name)
      .find((n) => /^(licen[cs]e|copying)(\.md|\.txt)?$/i.test(n));
    if (file === undefined) throw new Error(`${name} has no licence file to copy`);
    const text = (await Deno.readTextFile(join(dir, file))).trimEnd();
    parts.push(`${"=".repeat(78)}\n${name}@${manifest.version} (${manifest.license})\n\n${text}\n`);
  }
  return parts.join("\n");
}

/** Whether `line` is (part of) a comment: JSDoc examples name packages too. */
function isComment(line: string): boolean {
  return /^\s*(\*|\/\/|\/\*)/.test(line);
}

const SPECIFIER = /((?:from\s+|import\s*\(\s*|require\s*\(\s*)(["']))([^"']+)\2/g;

/**
 * Bare specifiers of `text`'s imports and exports (`from "x"`, `import("x")`,
 * `require("x")`), comments left out.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { bareSpecifiers } from "./sdk_bundle.ts";
 *
 * const text = 'import type * as grpc from "@grpc/grpc-js";\n * import x from "y";\nimport "./z.js";';
 * assert.deepEqual(bareSpecifiers(text), ["@grpc/grpc-js"]);
 * ```
 */
export function bareSpecifiers(text: string): string[] {
  const found = new Set<string>();
  for (const line of text.split("\n")) {
    if (isComment(line)) continue;
    for (const m of line.matchAll(SPECIFIER)) {
      const specifier = m[3]!;
      if (!specifier.startsWith(".") && !specifier.startsWith("/")) found.add(specifier);
    }
  }
  return [...found];
}

/** `text` with the specifier `from` of its imports and exports replaced by `to`, comments left alone. */
function replaceSpecifier(text: string, from: string, to: string): string {
  return text.split("\n").map((line) =>
    isComment(line)
      ? line
      : line.replace(SPECIFIER, (whole, head: string, _q: string, specifier: string) =>
        specifier === from ? `${head}${to}${head.at(-1)}` : whole)
  ).join("\n");
}

/** Node.js's built-in modules, as declarations name them (`http2`, `node:tls`). */
function isBuiltin(specifier: string): boolean {
  return specifier.startsWith("node:") ||
    ["events", "http2", "net", "stream", "tls", "url", "buffer", "dns", "http", "crypto"]
      .includes(specifier);
}

function packageName(specifier: string): string {
  const parts = specifier.split("/");
  return specifier.startsWith("@") ? parts.slice(0, 2).join("/") : parts[0]!;
}

async function declarationFiles(dir: string): Promise<string[]> {
  const files: string[] = [];
  for await (const entry of Deno.readDir(dir)) {
    const path = join(dir, entry.name);
    if (entry.isDirectory && entry.name !== "node_modules") {
      files.push(...await declarationFiles(path));
    } else if (entry.isFile && entry.name.endsWith(".d.ts")) files.push(path);
  }
  return files;
}

/** The declaration file a package's types start from. */
async function typesEntry(dir: string): Promise<string> {
  const manifest = JSON.parse(await Deno.readTextFile(join(dir, "package.json")));
  const types = manifest.types ?? manifest.typings ?? "index.d.ts";
  return types.replace(/^\.\//, "");
}

/**
 * Copies under `dist/vendor/<package>/` the declarations of every package that
 * the declarations in `dist` name (and those name in turn), from
 * `stage/node_modules/`, and points the imports at the copies. Returns the
 * packages copied. Throws for a package it cannot find.
 */
export async function vendorDeclarations(stage: string, dist: string): Promise<string[]> {
  const vendor = join(dist, "vendor");
  const copied = new Set<string>();
  const pending = await declarationFiles(dist);
  while (pending.length > 0) {
    const file = pending.pop()!;
    let text = await Deno.readTextFile(file);
    for (const specifier of bareSpecifiers(text)) {
      // An optional peer's types come from the application's own copy, when it has one.
      if (isBuiltin(specifier) || packageName(specifier) in OPTIONAL_PEERS) continue;
      const name = packageName(specifier);
      const source = join(stage, "node_modules", name);
      if (!copied.has(name)) {
        copied.add(name);
        // Declarations as the package wrote them: extensionless imports, CommonJS's resolution.
        await Deno.mkdir(join(vendor, name), { recursive: true });
        await Deno.writeTextFile(join(vendor, name, "package.json"), '{ "type": "commonjs" }\n');
        for (const declaration of await declarationFiles(source)) {
          const target = join(vendor, name, relative(source, declaration));
          await Deno.mkdir(dirname(target), { recursive: true });
          await Deno.copyFile(declaration, target);
          pending.push(target);
        }
      }
      const subpath = specifier.slice(name.length).replace(/^\//, "");
      const target = subpath === ""
        ? join(vendor, name, await typesEntry(source))
        : join(vendor, name, subpath.replace(/\.js$/, ".d.ts"));
      let path = relative(dirname(file), target).replace(/\.d\.ts$/, ".js");
      if (!path.startsWith(".")) path = `./${path}`;
      text = replaceSpecifier(text, specifier, path);
    }
    await Deno.writeTextFile(file, text);
  }
  return [...copied].sort();
}
