/**
 * The part of the `Store` contract about namespace definitions
 * (`store.definitions`): conditional creates and updates, deletes, a load at
 * one revision, and a watch that streams every change in order. Registered by
 * `storeContract`, so both adapters run it.
 *
 * @module
 */
import assert from "node:assert/strict";
import type { DefinitionBatch } from "../../src/store/mod.ts";
import { contractTest } from "./store_contract_test_fn.ts";
import type { OpenStore } from "./store_contract.ts";

async function next(reader: ReadableStreamDefaultReader<DefinitionBatch>) {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error("No definition batch within 5 s")), 5_000);
  });
  while (true) {
    const { done, value } = await Promise.race([reader.read(), late]).finally(() =>
      clearTimeout(timer)
    );
    if (done) throw new Error("The definitions watch closed early");
    if (value.changes.length > 0 || value.resync) return value;
  }
}

/** Registers the definitions contract tests for the adapter `name`. */
export function definitionsContract(name: string, open: OpenStore): void {
  const test = contractTest(name, open);
  const spec = (shardNum: number) => ({ name: "orders", type: "fixed", shardNum });

  test("namespace definitions: create once, update at a revision, delete", async (store) => {
    const defs = store.definitions;
    assert.equal((await defs.loadDefinitions()).definitions.size, 0);
    const created = await defs.putDefinition({ name: "orders", source: "api", spec: spec(4) }, 0);
    assert.ok(created !== undefined && created > 0);
    assert.equal(
      await defs.putDefinition({ name: "orders", source: "api", spec: spec(5) }, 0),
      undefined,
      "a second create is refused",
    );
    const stale = await defs.putDefinition(
      { name: "orders", source: "api", spec: spec(6) },
      created - 1,
    );
    assert.equal(stale, undefined, "an update at another revision is refused");
    const updated = await defs.putDefinition(
      { name: "orders", source: "api", spec: spec(8) },
      created,
    );
    assert.ok(updated !== undefined && updated > created);
    await defs.putDefinition({ name: "jobs", source: "file", spec: { name: "jobs" } });
    const loaded = await defs.loadDefinitions();
    assert.ok(loaded.revision >= updated);
    assert.deepEqual(loaded.definitions.get("orders"), {
      name: "orders",
      source: "api",
      spec: spec(8),
      revision: updated,
    });
    assert.equal(loaded.definitions.get("jobs")?.source, "file");
    assert.equal(await defs.deleteDefinition("orders", created), false, "stale delete refused");
    assert.equal(await defs.deleteDefinition("orders"), true);
    assert.equal(await defs.deleteDefinition("orders"), false, "nothing left to delete");
    assert.deepEqual([...(await defs.loadDefinitions()).definitions.keys()], ["jobs"]);
  });

  test("namespace definitions: a watch streams writes and deletes in order", async (store) => {
    const defs = store.definitions;
    const { revision } = await defs.loadDefinitions();
    const stop = new AbortController();
    const reader = defs.watchDefinitions(revision, stop.signal).getReader();
    try {
      const r1 = await defs.putDefinition({ name: "a", source: "api", spec: { name: "a" } }, 0);
      const r2 = await defs.putDefinition({ name: "a", source: "api", spec: { name: "a", x: 1 } });
      await defs.deleteDefinition("a");
      const first = await next(reader);
      assert.deepEqual(first, {
        revision: r1,
        changes: [{
          name: "a",
          definition: { name: "a", source: "api", spec: { name: "a" }, revision: r1 },
        }],
      });
      assert.equal((await next(reader)).changes[0]?.definition?.revision, r2);
      const deleted = await next(reader);
      assert.ok(deleted.revision > (r2 ?? 0));
      assert.deepEqual(deleted.changes, [{ name: "a" }]);
    } finally {
      stop.abort();
      await reader.cancel().catch(() => {});
    }
  });
}
