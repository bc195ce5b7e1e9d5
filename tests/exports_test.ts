/** The entry points `deno.json` names exist and load. */
import assert from "node:assert/strict";
import denoConfig from "../deno.json" with { type: "json" };

Deno.test("every export of deno.json is a module that loads and exports something", async () => {
  const exports = denoConfig.exports as Record<string, string>;
  assert.ok(Object.keys(exports).length > 0);
  for (const [name, path] of Object.entries(exports)) {
    const module = await import(new URL(`../${path}`, import.meta.url).href);
    assert.ok(Object.keys(module).length > 0, `${name} (${path}) exports nothing`);
  }
});
