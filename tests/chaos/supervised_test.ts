import assert from "node:assert/strict";
import { Supervised } from "./supervised.ts";

Deno.test("a supervised process gets its base env, and a start's own env instead once", async () => {
  const lines: string[] = [];
  const process = new Supervised({
    name: "env-probe",
    command: () => [Deno.execPath(), "eval", "console.log(Deno.env.get('PROBE'))"],
    env: { PROBE: "base" },
    onLine: (line) => lines.push(line),
    onExit: () => {},
    ready: (p) => p.waitLine(() => true, 10_000),
  });
  await process.start();
  await process.kill("SIGTERM");
  await process.start({ env: { PROBE: "once" } });
  await process.kill("SIGTERM");
  await process.start();
  await process.kill("SIGTERM");
  assert.deepEqual(lines, ["base", "once", "base"]);
});
