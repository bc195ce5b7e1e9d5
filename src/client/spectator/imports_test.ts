import assert from "node:assert/strict";

Deno.test("the spectator SDK imports nothing from src/ but client/common, wire and shared", async () => {
  const dir = new URL("./", import.meta.url);
  const allowed = ["../common/", "../../wire/", "../../shared/"];
  for await (const entry of Deno.readDir(dir)) {
    if (!entry.isFile || !entry.name.endsWith(".ts")) continue;
    const text = await Deno.readTextFile(new URL(entry.name, dir));
    for (const [, specifier] of text.matchAll(/^\s*(?:import|export)\b[^"']*["']([^"']+)["']/gm)) {
      if (!specifier!.startsWith(".")) continue;
      const local = specifier!.startsWith("./") && !specifier!.slice(2).includes("/");
      assert.ok(
        local || allowed.some((prefix) => specifier!.startsWith(prefix)),
        `${entry.name} imports ${specifier}`,
      );
    }
  }
});
