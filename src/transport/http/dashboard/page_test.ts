import assert from "node:assert/strict";
import { dashboardPage, pageScript } from "./page.ts";

Deno.test("the page script is valid JavaScript", () => {
  // Parsing only: `new Function` compiles the body without running it.
  assert.doesNotThrow(() => new Function(pageScript()));
});

Deno.test("every element the script looks up exists in the page", async () => {
  const { html } = await dashboardPage();
  const ids = [...pageScript().matchAll(/\$\("([\w-]+)"\)/g)].map((m) => m[1]!);
  assert.ok(ids.length > 20, `found ${ids.length} lookups`);
  for (const id of new Set(ids)) assert.ok(html.includes(`id="${id}"`), `#${id} missing`);
});

Deno.test("the page is self-contained and its CSP allows exactly its inline code", async () => {
  const { html, headers } = await dashboardPage();
  assert.doesNotMatch(html, /(src|href)="https?:/, "no external resources");
  const csp = headers["content-security-policy"] ?? "";
  assert.match(csp, /default-src 'none'/);
  assert.match(csp, /connect-src 'self'/);
  const script = html.slice(html.indexOf("<script>") + 8, html.lastIndexOf("</script>"));
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(script));
  const hash = btoa(String.fromCharCode(...new Uint8Array(digest)));
  assert.ok(csp.includes(`'sha256-${hash}'`), "the script's hash is in the CSP");
  assert.equal(headers["content-type"], "text/html; charset=utf-8");
});

Deno.test("the page script carries the tested load bucket function", () => {
  const script = pageScript();
  assert.match(script, /function loadBucket\(fraction, steps\)/);
  assert.match(script, /const LOAD_COLOURS = \["#ffffcc",/);
});
