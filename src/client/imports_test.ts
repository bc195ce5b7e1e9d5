import assert from "node:assert/strict";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const CLIENT = fileURLToPath(new URL(".", import.meta.url));
const SRC = resolve(CLIENT, "..");
// src/placement is pure shared code (no I/O, no clock, no server imports: the
// last test below keeps it so), so clients may compute owner sets with it.
const PLACEMENT = resolve(SRC, "placement");
const ALLOWED = [resolve(SRC, "client"), resolve(SRC, "wire"), PLACEMENT];
const SPECIFIER = /\b(?:from\s*|import\s*\(\s*|import\s+|export\s+\*\s+from\s*)["']([^"']+)["']/g;

async function* typescriptFiles(dir: string): AsyncGenerator<string> {
  for await (const entry of Deno.readDir(dir)) {
    const path = join(dir, entry.name);
    if (entry.isDirectory) yield* typescriptFiles(path);
    else if (entry.name.endsWith(".ts")) yield path;
  }
}

/** Relative imports of `text` that leave the `allowed` folders but stay in src/. */
export function serverImports(file: string, text: string, allowedDirs = ALLOWED): string[] {
  const bad: string[] = [];
  for (const [, specifier] of text.matchAll(SPECIFIER)) {
    if (specifier === undefined || !specifier.startsWith(".")) continue;
    const target = resolve(dirname(file), specifier);
    const inSrc = !relative(SRC, target).startsWith("..");
    const allowed = allowedDirs.some((dir) => !relative(dir, target).startsWith(".."));
    if (inSrc && !allowed) bad.push(specifier);
  }
  return bad;
}

Deno.test("the client SDKs import nothing from src/ outside src/client/, src/wire/ and src/placement/", async () => {
  const offenders: string[] = [];
  let files = 0;
  const self = fileURLToPath(import.meta.url); // its fixtures below are not imports
  for await (const file of typescriptFiles(CLIENT)) {
    files++;
    if (file === self) continue;
    for (const specifier of serverImports(file, await Deno.readTextFile(file))) {
      offenders.push(`${relative(SRC, file)} imports ${specifier}`);
    }
  }
  assert.ok(files > 10, `found only ${files} files under src/client/`);
  assert.deepEqual(offenders, []);
});

Deno.test("the import check catches server imports in every import form", () => {
  const file = join(CLIENT, "executor", "x.ts");
  const text = [
    'import { a } from "../../core/types.ts";',
    'export * from "../../store/mod.ts";',
    'import "../../app.ts";',
    'const m = await import("../../service/mod.ts");',
    'import type { B } from "../../wire/proto.ts";',
    'import { c } from "../common/unary.ts";',
    'import * as grpc from "@grpc/grpc-js";',
  ].join("\n");
  assert.deepEqual(serverImports(file, text), [
    "../../core/types.ts",
    "../../store/mod.ts",
    "../../app.ts",
    "../../service/mod.ts",
  ]);
});

Deno.test("src/placement, which the SDKs may import, imports nothing else from src/ nor npm", async () => {
  const offenders: string[] = [];
  for await (const file of typescriptFiles(PLACEMENT)) {
    const text = await Deno.readTextFile(file);
    for (const specifier of serverImports(file, text, [PLACEMENT])) {
      offenders.push(`${relative(SRC, file)} imports ${specifier}`);
    }
    for (const [, specifier] of text.matchAll(SPECIFIER)) {
      if (specifier && !specifier.startsWith(".") && !specifier.startsWith("node:assert")) {
        offenders.push(`${relative(SRC, file)} imports ${specifier}`);
      }
    }
  }
  assert.deepEqual(offenders, []);
});
