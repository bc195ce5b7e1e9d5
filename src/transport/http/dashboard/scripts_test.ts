import assert from "node:assert/strict";
import { BROWSER_DIR, BROWSER_FILES, readBrowserScripts, scriptResponse } from "./scripts.ts";

const DASHBOARD_DIR = new URL("./", import.meta.url);

Deno.test("no dashboard module carries browser code in a string", async () => {
  const offenders: string[] = [];
  for await (const entry of Deno.readDir(DASHBOARD_DIR)) {
    if (!entry.isFile || !entry.name.endsWith(".ts") || entry.name.endsWith("_test.ts")) continue;
    const source = await Deno.readTextFile(new URL(entry.name, DASHBOARD_DIR));
    // The stylesheet is the one raw string left: CSS, not code (`page.ts` hashes it for the CSP).
    if (/String\.raw/.test(source) && entry.name !== "page_style.ts") {
      offenders.push(`${entry.name}: String.raw`);
    }
    if (/\.toString\(\)/.test(source)) offenders.push(`${entry.name}: a function's source`);
    if (/<script>|<script [^>]*>[^<]/.test(source)) {
      offenders.push(`${entry.name}: inline <script>`);
    }
    if (/\bdocument\.\w|getElementById\(|createElement\(/.test(source)) {
      offenders.push(`${entry.name}: DOM code`);
    }
  }
  assert.deepEqual(offenders, [], "browser code belongs in packages/dashboard_browser/*.js");
});

Deno.test("every file of packages/dashboard_browser/ is served and type-checked as the DOM code it is", async () => {
  const files: string[] = [];
  for await (const entry of Deno.readDir(BROWSER_DIR)) {
    if (entry.name.endsWith(".js")) files.push(entry.name);
  }
  assert.deepEqual(files.sort(), [...BROWSER_FILES].sort(), "BROWSER_FILES lists browser/*.js");
  for (const [file, source] of await readBrowserScripts()) {
    assert.ok(source.startsWith("// @ts-check\n"), `${file} starts with // @ts-check`);
  }
  const root = JSON.parse(await Deno.readTextFile(new URL("../../../../deno.json", DASHBOARD_DIR)));
  assert.ok(root.workspace.includes("./packages/dashboard_browser"), "a workspace member");
  assert.match(root.tasks["compile:service"], /--include packages\/dashboard_browser\//);
  const member = JSON.parse(await Deno.readTextFile(new URL("deno.json", BROWSER_DIR)));
  assert.ok(member.compilerOptions.lib.includes("dom"), "checked with the DOM library");
});

Deno.test("browser modules are served as JavaScript that is never sniffed or cached", async () => {
  const res = scriptResponse(await readBrowserScripts(), "tables.js");
  assert.equal(res?.headers.get("content-type"), "text/javascript; charset=utf-8");
  assert.equal(res.headers.get("x-content-type-options"), "nosniff");
  assert.equal(res.headers.get("cache-control"), "no-store");
  assert.match(await res.text(), /export function renderExecutors/);
});

Deno.test("an unreadable browser folder is an error naming the file", async () => {
  const dir = new URL("file:///nonexistent-sm-browser/");
  await assert.rejects(
    readBrowserScripts(dir),
    /Cannot read the dashboard's browser code .*actions\.js/,
  );
});
