import assert from "node:assert/strict";
import fc from "fast-check";
import { FixedOwnerIndex } from "./fixed_owner_index.ts";
import { OwnerIndex, type OwnerTable } from "./owner_index.ts";

const SHARDS = 6;
/** Shard numbers, one past the end, non-canonical spellings and other keys. */
const KEYS = ["0", "1", "2", "3", "4", "5", "6", "01", "-1", "1.0", "x", ""];
const EXECUTORS = ["a", "b", "c", "d"];

type Op =
  | { op: "setOwner"; shard: string; owner: string; revision: number }
  | { op: "set"; shard: string; set: string[]; revision: number }
  | { op: "delete"; shard: string }
  | { op: "clear" };

const key = fc.constantFrom(...KEYS);
const executor = fc.constantFrom(...EXECUTORS);
const revision = fc.integer({ min: 1, max: 50 });
const opArb: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.record({
      op: fc.constant("setOwner" as const),
      shard: key,
      owner: executor,
      revision,
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      op: fc.constant("set" as const),
      shard: key,
      set: fc.uniqueArray(executor, { minLength: 1, maxLength: 3 }),
      revision,
    }),
  },
  { weight: 3, arbitrary: fc.record({ op: fc.constant("delete" as const), shard: key }) },
  { weight: 1, arbitrary: fc.constant({ op: "clear" as const }) },
);

function apply(index: OwnerTable, op: Op): void {
  if (op.op === "setOwner") index.setOwner(op.shard, op.owner, op.revision);
  else if (op.op === "set") index.set(op.shard, op.set, op.revision);
  else if (op.op === "delete") index.delete(op.shard);
  else index.clear();
}

const sorted = <T>(entries: Iterable<T>) =>
  [...entries].sort((x, y) => String(x) < String(y) ? -1 : String(x) > String(y) ? 1 : 0);

function assertSame(actual: OwnerTable, expected: OwnerTable): void {
  assert.deepEqual(sorted(actual.owners), sorted(expected.owners));
  assert.equal(actual.owners.size, expected.owners.size);
  assert.deepEqual(sorted(actual.assignedRevisions), sorted(expected.assignedRevisions));
  assert.equal(actual.assignedRevisions.size, expected.assignedRevisions.size);
  assert.deepEqual(sorted(actual.ownerSets), sorted(expected.ownerSets));
  assert.deepEqual(sorted(actual.byExecutor.keys()), sorted(expected.byExecutor.keys()));
  assert.equal(actual.byExecutor.size, expected.byExecutor.size);
  for (const shard of KEYS) {
    assert.equal(actual.owners.get(shard), expected.owners.get(shard), shard);
    assert.equal(actual.owners.has(shard), expected.owners.has(shard), shard);
    assert.equal(actual.assignedRevisions.get(shard), expected.assignedRevisions.get(shard));
    assert.deepEqual(actual.ownersOf(shard), expected.ownersOf(shard), shard);
  }
  for (const id of EXECUTORS) {
    const mine = actual.shardsOf(id);
    const theirs = expected.shardsOf(id);
    assert.deepEqual(sorted(mine), sorted(theirs), id);
    assert.deepEqual(actual.sortedShardsOf(id), expected.sortedShardsOf(id), `${id}, in order`);
    assert.equal(mine.size, theirs.size, id);
    for (const shard of KEYS) assert.equal(mine.has(shard), theirs.has(shard), `${id} ${shard}`);
    assert.equal(actual.byExecutor.get(id)?.size, expected.byExecutor.get(id)?.size);
  }
}

Deno.test("FixedOwnerIndex reads like OwnerIndex after any sequence of changes, stamps moving alike", () => {
  fc.assert(
    fc.property(fc.array(opArb, { maxLength: 60 }), (ops) => {
      const fixed = new FixedOwnerIndex(SHARDS);
      const reference = new OwnerIndex();
      for (const op of ops) {
        const before = EXECUTORS.map((id) => [fixed.stampOf(id), reference.stampOf(id)]);
        apply(fixed, op);
        apply(reference, op);
        assertSame(fixed, reference);
        EXECUTORS.forEach((id, i) => {
          const [mine, theirs] = before[i]!;
          assert.equal(
            fixed.stampOf(id) !== mine,
            reference.stampOf(id) !== theirs,
            `${id} after ${JSON.stringify(op)}`,
          );
        });
      }
    }),
    { numRuns: 500 },
  );
});

Deno.test("FixedOwnerIndex's compact arrays hold the single owners of shard numbers", () => {
  const index = new FixedOwnerIndex(4);
  index.setOwner("0", "a", 3);
  index.setOwner("3", "b", 4);
  index.set("1", ["a", "b"], 5);
  index.setOwner("9", "a", 6);
  const compact = index.compact();
  assert.deepEqual([...compact.ownerSlots], [compact.slotOf("a"), -1, -1, compact.slotOf("b")]);
  assert.equal(compact.slotIds[compact.slotOf("b")], "b");
  assert.equal(compact.complete, false);
  index.delete("1");
  index.delete("9");
  assert.equal(index.compact().complete, true);
  index.delete("3");
  assert.equal(index.compact().slotOf("b"), -1, "a slot is freed with its last shard");
});

Deno.test("a stamp never comes back, across clears", () => {
  const index = new FixedOwnerIndex(2);
  const seen = new Set<number>([index.stampOf("a")]);
  for (let round = 0; round < 5; round++) {
    index.setOwner("0", "a", round);
    assert.ok(!seen.has(index.stampOf("a")));
    seen.add(index.stampOf("a"));
    index.clear();
    assert.ok(!seen.has(index.stampOf("a")));
    seen.add(index.stampOf("a"));
  }
});
