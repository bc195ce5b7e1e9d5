import assert from "node:assert/strict";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const CLIENT = fileURLToPath(new URL(".", import.meta.url));
const SRC = resolve(CLIENT, "..");
const ALLOWED = [resolve(SRC, "client"), resolve(SRC, "wire")];
const SPECIFIER = /\b(?:from\s*|import\s*\(\s*|import\s+|export\s+\*\s+from\s*)["']([^"']+)["']/g;

async function* typescriptFiles(dir: string): AsyncGenerator<string> {
  for await (const entry of Deno.readDir(dir)) {
    const path = join(dir, entry.name);
    if (entry.isDirectory) yield* typescriptFiles(path);
    else if (entry.name.endsWith(".ts")) yield path;
  }
}

/** Relative imports of `text` that leave src/client and src/wire but stay in src/. */
export function serverImports(file: string, text: string): string[] {
  const bad: string[] = [];
  for (const [, specifier] of text.matchAll(SPECIFIER)) {
    if (specifier === undefined || !specifier.startsWith(".")) continue;
    const target = resolve(dirname(file), specifier);
    const inSrc = !relative(SRC, target).startsWith("..");
    const allowed = ALLOWED.some((dir) => !relative(dir, target).startsWith(".."));
    if (inSrc && !allowed) bad.push(specifier);
  }
  return bad;
}

Deno.test("the client SDKs import nothing from src/ outside src/client/ and src/wire/", async () => {
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
