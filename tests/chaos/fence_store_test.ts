import assert from "node:assert/strict";
import { startEtcd, uniquePrefix } from "../support/etcd.ts";
import { FencedStore, parseFenceValue } from "./fence_store.ts";

Deno.test({
  name: "the fenced store accepts equal and greater tokens, refuses lower ones, and counts",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    await using etcd = await startEtcd();
    const prefix = `${uniquePrefix("fence")}/fence`;
    const a = new FencedStore(etcd.endpoints, prefix);
    const b = new FencedStore(etcd.endpoints, prefix);
    try {
      assert.deepEqual(await a.write("n", "0", "5"), { accepted: true, count: 1 });
      assert.deepEqual(await a.write("n", "0", "5"), { accepted: true, count: 2 });
      // b has never read the key: its first transaction fails, it reads, and decides anew.
      assert.deepEqual(await b.write("n", "0", "12"), { accepted: true, count: 3 });
      assert.deepEqual(await a.write("n", "0", "5"), { accepted: false, stored: "12" });
      assert.deepEqual(await a.write("n", "0", "13"), { accepted: true, count: 4 });
      // Racing writers each get their own number.
      const raced = await Promise.all([
        a.write("n", "1", "7"),
        b.write("n", "1", "7"),
        a.write("n", "1", "7"),
      ]);
      const counts = raced.map((r) => r.accepted ? r.count : 0).sort();
      assert.deepEqual(counts, [1, 2, 3]);
      assert.deepEqual(
        Object.fromEntries(await b.readAll()),
        { "n/0": { token: "13", count: 4 }, "n/1": { token: "7", count: 3 } },
      );
      await assert.rejects(() => a.write("n", "0", "x1"), TypeError);
    } finally {
      a.close();
      b.close();
    }
  },
});

Deno.test("a stored value that is not a fence value is refused with a clear message", () => {
  assert.throws(() => parseFenceValue('{"token":"x","count":1}'), /decimal token/);
  assert.throws(() => parseFenceValue('{"token":"1"}'), /needs a count/);
});
