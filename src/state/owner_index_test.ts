import assert from "node:assert/strict";
import { OwnerIndex } from "./owner_index.ts";

Deno.test("owner index keeps one owner without a set, several with one, both ways", () => {
  const index = new OwnerIndex();
  index.setOwner("0", "a", 3);
  index.set("1", ["b", "a"], 4);
  index.set("2", ["c"], 5);
  assert.deepEqual([index.ownersOf("0"), index.ownersOf("1"), index.ownersOf("2")], [
    ["a"],
    ["b", "a"],
    ["c"],
  ]);
  assert.deepEqual([...index.ownerSets.keys()], ["1"], "only shards with several owners");
  assert.deepEqual([...index.shardsOf("a")].sort(), ["0", "1"]);
  assert.deepEqual(index.assignedRevisions, new Map([["0", 3], ["1", 4], ["2", 5]]));
  index.delete("1");
  assert.deepEqual([[...index.shardsOf("a")], [...index.shardsOf("b")]], [["0"], []]);
  assert.equal(index.byExecutor.has("b"), false);
  assert.deepEqual(index.ownersOf("1"), []);
});

Deno.test("owner index stamps move for every executor joining or leaving, and never repeat", () => {
  const index = new OwnerIndex();
  const seen = new Set<number>();
  const stamp = (id: string) => index.stampOf(id);
  index.set("s", ["a", "b"], 1);
  const [a, b, c] = [stamp("a"), stamp("b"), stamp("c")];
  for (const value of [a, b, c]) seen.add(value);
  index.set("s", ["a", "c"], 2);
  assert.ok(![stamp("a"), stamp("b"), stamp("c")].some((v) => seen.has(v)), "all three moved");
  const before = stamp("d");
  index.setOwner("t", "b", 3);
  assert.equal(stamp("d"), before, "an executor in neither set keeps its stamp");
  index.clear();
  assert.ok(stamp("d") > before && stamp("a") === stamp("d"), "clearing moves every stamp");
  assert.equal(index.owners.size + index.ownerSets.size + index.byExecutor.size, 0);
});
