/** The entry points the root deno.json and each workspace member's name exist and load. */
import assert from "node:assert/strict";
import denoConfig from "../deno.json" with { type: "json" };

/** `[folder, exports]` of the root and of every workspace member. */
async function packages(): Promise<[string, Record<string, string>][]> {
  const found: [string, Record<string, string>][] = [[".", denoConfig.exports]];
  for (const member of denoConfig.workspace) {
    const config = JSON.parse(
      await Deno.readTextFile(new URL(`../${member}/deno.json`, import.meta.url)),
    ) as { exports: Record<string, string> };
    found.push([member, config.exports]);
  }
  return found;
}

Deno.test("every export of deno.json and of each workspace member is a module that loads and exports something", async () => {
  for (const [folder, exports] of await packages()) {
    assert.ok(Object.keys(exports).length > 0, `${folder} exports nothing`);
    for (const [name, path] of Object.entries(exports)) {
      const module = await import(new URL(`../${folder}/${path}`, import.meta.url).href);
      assert.ok(Object.keys(module).length > 0, `${folder} ${name} (${path}) exports nothing`);
    }
  }
});
