import assert from "node:assert/strict";
import { spawnChild } from "../examples/_shared/child.ts";

const MAIN = new URL("../examples/sharded_counter/main.ts", import.meta.url);

Deno.test("sharded counter: clients keep being served through a rolling replacement of every node", async () => {
  const lines: string[] = [];
  await using main = spawnChild(MAIN, [
    ...["--nodes", "2", "--shards", "4", "--load-ms", "100", "--rate", "20"],
    ...["--replace-after", "2", "--duration", "18"],
  ], { name: "main", onLine: (line) => lines.push(line) });
  const status = await main.exited;
  const output = lines.join("\n");
  assert.equal(status.code, 0, output);
  const exits = lines.filter((l) => / node-\d exited \d+ ms after its SIGTERM$/.test(l));
  assert.equal(exits.length, 2, `both nodes replaced:\n${output}`);
  const total = lines.find((l) => l.includes(" in all, "));
  const match = total?.match(/in all, (\d+) requests: .* never served (\d+)\)/);
  assert.ok(match, `a final tally:\n${output}`);
  assert.ok(Number(match[1]) > 100, `requests were sent:\n${total}`);
  assert.equal(match[2], "0", `every request was served in the end:\n${total}`);
});
