/** The entry points the root deno.json and each workspace member's name exist and load. */
import assert from "node:assert/strict";
import denoConfig from "../deno.json" with { type: "json" };

/**
 * Workspace members that are not packages: they export nothing on purpose.
 * `packages/dashboard_browser` is the dashboard's browser code, a member only
 * so that `deno check` and `deno lint` see it with the DOM library.
 */
const NOT_PACKAGES: readonly string[] = ["./packages/dashboard_browser"];

/** `[folder, exports]` of the root and of every workspace member that is a package. */
async function packages(): Promise<[string, Record<string, string>][]> {
  const found: [string, Record<string, string>][] = [[".", denoConfig.exports]];
  for (const member of denoConfig.workspace) {
    const config = JSON.parse(
      await Deno.readTextFile(new URL(`../${member}/deno.json`, import.meta.url)),
    ) as { exports?: Record<string, string> };
    if (NOT_PACKAGES.includes(member)) {
      assert.equal(config.exports, undefined, `${member} is not a package, yet exports`);
      continue;
    }
    assert.ok(config.exports, `${member} has no exports`);
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
