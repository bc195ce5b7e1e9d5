/**
 * Every code block of the SDK documentation compiles or parses as a user of
 * the package would have it: docs/sdk_executor.md, docs/sdk_spectator.md,
 * docs/sdk_testing.md (the test kit, `@shard-manager/testing`),
 * packages/sdk/README.md and the README's "SDKs" section. TypeScript and
 * JavaScript blocks (the latter with `@ts-check`) are written into a fresh project (outside this repository) whose deno.json
 * maps the package names exactly as the install sections say, with the
 * checkout the docs call `../shard-manager/` standing for this repository,
 * and type-checked with `deno check`; JSON and YAML blocks must parse, and the
 * import map they document must name files that exist.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { parse as parseYaml } from "yaml";
import { denoBinary } from "./support/deno_bin.ts";
import { runIn } from "./support/sdk_project.ts";

const ROOT = new URL("../", import.meta.url).pathname;
/** What the docs call the checkout of this repository, next to the user's project. */
const CHECKOUT = "../shard-manager/";
const LANGUAGES = ["ts", "js", "json", "yaml", "sh"];
/** The test kit's name: only docs/sdk_testing.md maps it. */
const TEST_KIT = "@shard-manager/testing";

/** A fenced code block: where it is, its info string and its text. */
interface Block {
  readonly where: string;
  readonly info: string;
  readonly text: string;
}

/** The fenced blocks of `markdown`; `section` keeps only those under that `## ` heading. */
function codeBlocks(file: string, markdown: string, section?: string): Block[] {
  let text = markdown;
  if (section !== undefined) {
    const start = text.indexOf(`\n## ${section}\n`);
    assert.ok(start >= 0, `${file} has no "## ${section}" section`);
    const end = text.indexOf("\n## ", start + 1);
    text = text.slice(start, end < 0 ? undefined : end);
  }
  const blocks: Block[] = [];
  for (const match of text.matchAll(/^```([^\n]*)\n([\s\S]*?)^```$/gm)) {
    const line = markdown.slice(0, markdown.indexOf(match[0])).split("\n").length;
    blocks.push({ where: `${file}:${line}`, info: match[1]!.trim(), text: match[2]! });
  }
  return blocks;
}

async function sdkDocBlocks(): Promise<Block[]> {
  const read = (path: string) => Deno.readTextFile(join(ROOT, path));
  return [
    ...codeBlocks("docs/sdk_executor.md", await read("docs/sdk_executor.md")),
    ...codeBlocks("docs/sdk_spectator.md", await read("docs/sdk_spectator.md")),
    ...codeBlocks("docs/sdk_testing.md", await read("docs/sdk_testing.md")),
    ...codeBlocks("packages/sdk/README.md", await read("packages/sdk/README.md")),
    ...codeBlocks("README.md", await read("README.md"), "SDKs"),
  ];
}

/** The import map of the install sections, with the checkout pointing at this repository. */
function importMap(): Record<string, string> {
  const map: Record<string, string> = {};
  for (
    const [name, entry] of Object.entries({
      "": "mod",
      "/executor": "executor",
      "/spectator": "spectator",
      "/leader": "leader",
    })
  ) {
    map[`@shard-manager/sdk${name}`] = `${CHECKOUT}packages/sdk/${entry}.ts`;
  }
  map[TEST_KIT] = `${CHECKOUT}packages/testing/mod.ts`;
  return map;
}

const inRepository = (text: string) => text.replaceAll(`"${CHECKOUT}`, `"${ROOT}`);

Deno.test("every code block of the SDK docs has a language this test checks", async () => {
  const blocks = await sdkDocBlocks();
  assert.ok(blocks.length >= 15, `only ${blocks.length} blocks found`);
  const unchecked = blocks.filter((b) => !LANGUAGES.includes(b.info)).map((b) =>
    `${b.where} ${b.info}`
  );
  assert.deepEqual(unchecked, [], "every block is ts, js, json, yaml or sh (no `ts ignore`)");
});

Deno.test("the JSON and YAML blocks of the SDK docs parse, and the documented import map is this one", async () => {
  for (const block of await sdkDocBlocks()) {
    if (block.info === "yaml") parseYaml(block.text);
    if (block.info !== "json") continue;
    const value = JSON.parse(block.text) as { imports?: Record<string, string> };
    if (value.imports === undefined) continue;
    const expected = importMap();
    if (!(TEST_KIT in value.imports)) delete expected[TEST_KIT];
    assert.deepEqual(value.imports, expected, `${block.where}: the import map`);
    for (const path of Object.values(value.imports)) {
      await Deno.stat(join(ROOT, path.slice(CHECKOUT.length)));
    }
  }
});

Deno.test("the TypeScript blocks of the SDK docs type-check in a project of their own", async () => {
  const dir = await Deno.makeTempDir({ prefix: "sm-sdk-docs-" });
  try {
    const map = Object.fromEntries(
      Object.entries(importMap()).map(([k, v]) => [k, inRepository(`"${v}`).slice(1)]),
    );
    await Deno.writeTextFile(join(dir, "deno.json"), JSON.stringify({ imports: map }, null, 2));
    const files: string[] = [];
    const origin: Record<string, string> = {};
    for (const block of await sdkDocBlocks()) {
      if (block.info !== "ts" && block.info !== "js") continue;
      const file = `block_${files.length}.${block.info}`;
      // Each block is a module of its own (`export {}` makes one of a block without imports);
      // JavaScript is type-checked too (`@ts-check`), against the SDK's declarations.
      const check = block.info === "js" ? "// @ts-check\n" : "";
      await Deno.writeTextFile(
        join(dir, file),
        `${check}${inRepository(block.text)}\nexport {};\n`,
      );
      files.push(file);
      origin[file] = block.where;
    }
    const { code, output } = await runIn(dir, denoBinary(), ["check", ...files]);
    const named = output.replace(/block_\d+\.[jt]s/g, (file) => `${file} (${origin[file]})`);
    assert.equal(code, 0, `deno check failed:\n${named}`);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
