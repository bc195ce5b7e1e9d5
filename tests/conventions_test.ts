/**
 * Conventions a reviewer would otherwise have to remember. Doc examples that
 * can fail (STYLE.md 13): `deno task test:doc` runs them, and this keeps them
 * from asserting with something that never throws. The import rules are in
 * `boundaries_test.ts`.
 */
import assert from "node:assert/strict";
import { join, relative } from "node:path";
import { ROOT } from "./support/import_graph.ts";

async function* typescriptFiles(dir: string): AsyncGenerator<string> {
  for await (const entry of Deno.readDir(dir)) {
    const path = join(dir, entry.name);
    if (entry.isDirectory) yield* typescriptFiles(path);
    else if (entry.name.endsWith(".ts")) yield path;
  }
}

Deno.test("no code or doc example asserts with console's assert, which never throws", async () => {
  const banned = ["console", "assert"].join("."); // so that this file does not match itself
  const offenders: string[] = [];
  for (const dir of ["src", "bench", "examples", "scripts", "tests"]) {
    for await (const file of typescriptFiles(join(ROOT, dir))) {
      const lines = (await Deno.readTextFile(file)).split("\n");
      lines.forEach((line, i) => {
        if (line.includes(banned)) {
          offenders.push(`${relative(ROOT, file)}:${i + 1}: ${line.trim()}`);
        }
      });
    }
  }
  assert.deepEqual(offenders, [], `use node:assert/strict instead:\n${offenders.join("\n")}`);
});
