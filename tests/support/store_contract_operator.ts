/**
 * The `Store` contract for operator writes (`applyOperatorWrite`,
 * `pruneOperatorRequests`), run against every adapter.
 *
 * @module
 */
import assert from "node:assert/strict";
import type { ExecutorDrain } from "../../src/core/executor_drain.ts";
import { contractTest } from "./store_contract_test_fn.ts";
import type { OpenStore } from "./store_contract.ts";

const drain = (executorId: string): ExecutorDrain => ({
  executorId,
  id: `id:${executorId}`,
  reason: "",
  createdAtMs: 1,
});

/** Registers the operator-write contract tests for the adapter `name`. */
export function operatorWriteContract(name: string, open: OpenStore): void {
  const test = contractTest(name, open);

  test("applies an operator write with a request id once", async (store) => {
    const write = { type: "shard_drains", shardKeys: ["1"], drained: true } as const;
    const first = await store.applyOperatorWrite("ns", write, { requestId: "r1", atMs: 10 });
    assert.equal(first.applied, true);
    await store.setDrained("ns", ["1"], false);
    const again = await store.applyOperatorWrite("ns", write, { requestId: "r1", atMs: 11 });
    assert.deepEqual({ applied: again.applied, reason: !again.applied && again.reason }, {
      applied: false,
      reason: "duplicate",
    });
    assert.deepEqual([...(await store.loadNamespace("ns")).drained], []);
    // Another namespace keeps its own ids.
    assert.equal(
      (await store.applyOperatorWrite("other", write, { requestId: "r1", atMs: 12 }))
        .applied,
      true,
    );
  });

  test("refuses a guarded drain when another drain landed after the guard's revision", async (store) => {
    const seen = (await store.loadNamespace("ns")).revision;
    const a = await store.applyOperatorWrite("ns", {
      type: "put_executor_drain",
      drain: drain("a"),
    }, {
      atMs: 1,
      drainsUnchangedSince: seen,
    });
    assert.equal(a.applied, true);
    const b = await store.applyOperatorWrite("ns", {
      type: "put_executor_drain",
      drain: drain("b"),
    }, {
      atMs: 2,
      drainsUnchangedSince: seen,
    });
    assert.equal(b.applied, false);
    assert.equal(!b.applied && b.reason, "changed");
    const now = (await store.loadNamespace("ns")).revision;
    const retried = await store.applyOperatorWrite(
      "ns",
      { type: "put_executor_drain", drain: drain("b") },
      { atMs: 3, drainsUnchangedSince: now },
    );
    assert.equal(retried.applied, true);
    assert.deepEqual([...(await store.loadNamespace("ns")).executorDrains.keys()].sort(), [
      "id:a",
      "id:b",
    ]);
  });

  test("a reset with a request id reports its deletes and is not repeated", async (store) => {
    await store.setDrained("ns", ["1", "2"], true);
    const reset = await store.applyOperatorWrite("ns", { type: "reset" }, {
      requestId: "x",
      atMs: 1,
    });
    assert.equal(reset.applied && reset.deleted, 2);
    await store.setDrained("ns", ["3"], true);
    const again = await store.applyOperatorWrite("ns", { type: "reset" }, {
      requestId: "x",
      atMs: 2,
    });
    assert.equal(again.applied, false);
    assert.deepEqual([...(await store.loadNamespace("ns")).drained], ["3"]);
  });

  test("forgets request ids past their age and count", async (store) => {
    const write = { type: "shard_drains", shardKeys: ["1"], drained: true } as const;
    for (const [id, atMs] of [["old", 1], ["mid", 50], ["new", 100], ["newest", 200]] as const) {
      await store.applyOperatorWrite("ns", write, { requestId: id, atMs });
    }
    assert.equal(await store.pruneOperatorRequests("ns", { beforeMs: 10, keep: 2 }), 2);
    const reapplied = async (id: string) =>
      (await store.applyOperatorWrite("ns", write, { requestId: id, atMs: 300 })).applied;
    assert.equal(await reapplied("newest"), false);
    assert.equal(await reapplied("new"), false);
    assert.equal(await reapplied("old"), true, "a forgotten id applies again");
  });
}
