import assert from "node:assert/strict";
import { InvalidArgumentError } from "../../../core/errors.ts";
import type { DrainTarget } from "../../../core/executor_drain.ts";
import {
  type ActionBackend,
  MAX_BODY_BYTES,
  parseExecutorBody,
  parseShardBody,
  readJsonBody,
  runAction,
} from "./actions.ts";

Deno.test("executor bodies name one executor or a selector, with an optional reason", () => {
  assert.deepEqual(parseExecutorBody({ executorId: "e1" }), {
    target: { executorId: "e1" },
    reason: "",
  });
  assert.deepEqual(parseExecutorBody({ selector: { zone: "b" }, reason: "rack b" }), {
    target: { selector: { zone: "b" } },
    reason: "rack b",
  });
});

Deno.test("malformed executor bodies are invalid arguments that say what was given", () => {
  const cases: [unknown, RegExp][] = [
    [null, /Invalid body: must be a JSON object, got null/],
    [[], /Invalid body: must be a JSON object/],
    [{}, /give an executor id or a selector/],
    [{ executorId: 7 }, /Invalid executorId: must be a string, got 7/],
    [{ executorId: "a", selector: { z: "b" } }, /not both/],
    [{ selector: "zone=b" }, /Invalid selector: must be an object of strings/],
    [{ selector: { zone: 1 } }, /Invalid selector\["zone"\]: must be a string, got 1/],
    [{ executorId: "a", reason: false }, /Invalid reason: must be a string/],
  ];
  for (const [body, message] of cases) {
    assert.throws(() => parseExecutorBody(body), (e: unknown) => {
      assert.ok(e instanceof InvalidArgumentError, String(e));
      assert.match(e.message, message);
      return true;
    });
  }
});

Deno.test("shard bodies carry an array of keys", () => {
  assert.deepEqual(parseShardBody({ shardKeys: ["1", "x"] }), ["1", "x"]);
  assert.throws(() => parseShardBody({ shardKeys: "1" }), /shardKeys: must be an array/);
  assert.throws(() => parseShardBody({ shardKeys: [1] }), /shardKeys\[0\]: must be a string/);
  assert.throws(() => parseShardBody("x"), InvalidArgumentError);
});

Deno.test("JSON bodies are read with a size limit", async () => {
  const req = (body: string) => new Request("http://h/", { method: "POST", body });
  assert.deepEqual(await readJsonBody(req('{"a":1}')), { a: 1 });
  await assert.rejects(readJsonBody(req("{")), /Invalid body: is not JSON/);
  await assert.rejects(
    readJsonBody(req(" ".repeat(MAX_BODY_BYTES + 1))),
    /Invalid body: is \d+ bytes; at most/,
  );
});

Deno.test("actions call the service and shape its answers", async () => {
  const calls: unknown[] = [];
  const backend: ActionBackend = {
    operations: {
      drainShards: (
        ns,
        keys,
      ) => (calls.push(["drainShards", ns, keys]), Promise.resolve([...keys])),
      undrainShards: (ns, keys) => (calls.push(["undrain", ns, keys]), Promise.resolve(["1"])),
    },
    executorDrains: {
      drain: (ns, target: DrainTarget, reason = "") => {
        calls.push(["drain", ns, target, reason]);
        const drain = { ...target, id: "id:e1", reason, createdAtMs: 1 } as const;
        return Promise.resolve({ drain, matched: ["e1"], dryRun: false, plannedMoves: [] });
      },
      undrain: (ns, target) => {
        calls.push(["undrainExecutor", ns, target]);
        return Promise.resolve({ stillDrained: [] });
      },
    },
  };
  const run = (target: "shards" | "executors", action: "drain" | "undrain", body: unknown) =>
    runAction(backend, { namespace: "ns", target, action, body });
  assert.deepEqual(await run("shards", "drain", { shardKeys: ["1"] }), {
    drainedShardKeys: ["1"],
  });
  assert.deepEqual(await run("shards", "undrain", { shardKeys: ["1"] }), {
    undrainedShardKeys: ["1"],
  });
  assert.deepEqual(await run("executors", "drain", { executorId: "e1", reason: "r" }), {
    drain: { executorId: "e1", id: "id:e1", reason: "r", createdAtMs: 1 },
    matched: ["e1"],
  });
  assert.deepEqual(await run("executors", "undrain", { executorId: "e1" }), {
    removed: null,
    stillDrained: [],
  });
  assert.equal(calls.length, 4);
});
