import assert from "node:assert/strict";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const EXAMPLES = fileURLToPath(new URL("../examples/", import.meta.url));
const CLIENT = fileURLToPath(new URL("../src/client/", import.meta.url));
const SPECIFIER = /\b(?:from\s*|import\s*\(\s*|import\s+|export\s+\*\s+from\s*)["']([^"']+)["']/g;
const PACKAGES = /^(npm:|node:|croner$)/;

async function* typescriptFiles(dir: string): AsyncGenerator<string> {
  for await (const entry of Deno.readDir(dir)) {
    const path = join(dir, entry.name);
    if (entry.isDirectory) yield* typescriptFiles(path);
    else if (entry.name.endsWith(".ts")) yield path;
  }
}

Deno.test("examples import only the client SDKs, each other and packages, never server code", async () => {
  const offenders: string[] = [];
  let files = 0;
  for await (const file of typescriptFiles(EXAMPLES)) {
    files++;
    for (const [, specifier] of (await Deno.readTextFile(file)).matchAll(SPECIFIER)) {
      if (specifier === undefined || PACKAGES.test(specifier)) continue;
      const target = resolve(dirname(file), specifier);
      const inside = (dir: string) => !relative(dir, target).startsWith("..");
      if (!specifier.startsWith(".") || !(inside(EXAMPLES) || inside(CLIENT))) {
        offenders.push(`${relative(EXAMPLES, file)} imports ${specifier}`);
      }
    }
  }
  assert.ok(files >= 16, `found only ${files} files under examples/`);
  assert.deepEqual(offenders, []);
});
