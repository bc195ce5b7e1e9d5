import assert from "node:assert/strict";
import { dashboardPage } from "./page.ts";
import { BROWSER_DIR, BROWSER_FILES, ENTRY_SCRIPT, readBrowserScripts } from "./scripts.ts";

Deno.test("every element the browser code looks up exists in the page", async () => {
  const { html } = await dashboardPage();
  const ids: string[] = [];
  for (const source of (await readBrowserScripts()).values()) {
    ids.push(...[...source.matchAll(/\$(?:as)?\("([\w-]+)"/g)].map((m) => m[1]!));
  }
  assert.ok(ids.length > 20, `found ${ids.length} lookups`);
  for (const id of new Set(ids)) assert.ok(html.includes(`id="${id}"`), `#${id} missing`);
});

Deno.test("the page has no inline script and its CSP allows scripts from its own origin only", async () => {
  const { html, headers } = await dashboardPage();
  assert.doesNotMatch(html, /(src|href)="https?:/, "no external resources");
  const scripts = [...html.matchAll(/<script([^>]*)>([\s\S]*?)<\/script>/g)];
  assert.deepEqual(scripts.map((m) => [m[1], m[2]]), [
    [` type="module" src="browser/${ENTRY_SCRIPT}"`, ""],
  ]);
  const csp = headers["content-security-policy"] ?? "";
  assert.match(csp, /default-src 'none'/);
  assert.match(csp, /script-src 'self';/);
  assert.doesNotMatch(csp, /unsafe-inline|unsafe-eval/);
  assert.match(csp, /connect-src 'self'/);
  const style = html.slice(html.indexOf("<style>") + 7, html.indexOf("</style>"));
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(style));
  const hash = btoa(String.fromCharCode(...new Uint8Array(digest)));
  assert.ok(csp.includes(`style-src 'sha256-${hash}'`), "the style's hash is in the CSP");
  assert.equal(headers["content-type"], "text/html; charset=utf-8");
});

Deno.test("every module the page imports is served, and every served module is imported", async () => {
  const scripts = await readBrowserScripts();
  const reached = new Set<string>();
  const visit = (file: string) => {
    if (reached.has(file)) return;
    reached.add(file);
    const source = scripts.get(file);
    assert.ok(source !== undefined, `${file} is imported but not served`);
    for (const m of source.matchAll(/^import [^;]*? from "\.\/([\w]+\.js)";$/gm)) visit(m[1]!);
  };
  visit(ENTRY_SCRIPT);
  assert.deepEqual([...reached].sort(), [...BROWSER_FILES].sort());
});

Deno.test("the load scale the browser draws with is the module the server tests", async () => {
  const served = (await readBrowserScripts()).get("colour.js");
  assert.equal(served, await Deno.readTextFile(new URL("colour.js", BROWSER_DIR)));
  assert.match(served ?? "", /export function loadBucket\(fraction, steps\)/);
});
