import assert from "node:assert/strict";
import {
  countsOf,
  isSpread,
  makeExecutors,
  makeShards,
  prng,
  randomBelow,
  randomExecutors,
  zonesOf,
} from "./_fixtures.ts";
import { planReplicas } from "./replicas.ts";
import type { PlacementExecutor } from "./types.ts";

const empty = (n: number): string[][] => Array.from({ length: n }, () => []);

function assertValid(
  owners: readonly (readonly string[])[],
  executors: readonly PlacementExecutor[],
  width: number,
): void {
  const ids = new Set(executors.map((e) => e.id));
  const zones = zonesOf(executors);
  for (const set of owners) {
    assert.equal(set.length, width);
    assert.equal(new Set(set).size, set.length, `repeated owner in ${set}`);
    for (const id of set) assert.ok(ids.has(id), `${id} is not eligible`);
    assert.ok(isSpread(set, zones), `${set} is not spread over zones`);
  }
}

Deno.test("planReplicas gives every shard k distinct owners, least loaded first", () => {
  const plan = planReplicas({
    shards: makeShards(4),
    owners: empty(4),
    executors: ["a", "b", "c", "d"],
  }, {
    replicas: 2,
  });
  assert.deepEqual(countsOf(plan.owners, ["a", "b", "c", "d"]), [2, 2, 2, 2]);
  for (const set of plan.owners) assert.equal(new Set(set).size, 2);
  assert.deepEqual({ ...plan, owners: undefined }, {
    owners: undefined,
    replicas: 2,
    shortShards: 0,
    added: 8,
    removed: 0,
    moves: 0,
    zoneSpreadViolations: 0,
  });
});

Deno.test("planReplicas gives every executor when there are fewer than k, and reports it", () => {
  const plan = planReplicas({ shards: ["s", "t"], owners: [["b"], []], executors: ["a", "b"] }, {
    replicas: 3,
  });
  assert.deepEqual(plan.owners, [["b", "a"], ["a", "b"]]);
  assert.equal(plan.replicas, 2);
  assert.equal(plan.shortShards, 2);
  const none = planReplicas({ shards: ["s"], owners: [["gone"]], executors: [] }, { replicas: 2 });
  assert.deepEqual(none.owners, [[]]);
  assert.equal(none.removed, 1);
});

Deno.test("planReplicas spreads replicas over zones before balancing", () => {
  // Zone a has one executor, zone b three: every shard has one replica in each.
  const executors = ["a1", "b1", "b2", "b3"].map((id) => ({ id, metadata: { az: id[0]! } }));
  const plan = planReplicas({ shards: makeShards(6), owners: empty(6), executors }, {
    replicas: 2,
    zoneKey: "az",
  });
  for (const set of plan.owners) assert.deepEqual(set.map((id) => id[0]).sort(), ["a", "b"]);
  assert.deepEqual(countsOf(plan.owners, ["a1", "b1", "b2", "b3"]), [6, 2, 2, 2]);
});

Deno.test("planReplicas moves replicas into a zone that joined, within the move budget", () => {
  const before = makeExecutors(4, 2);
  const first = planReplicas({ shards: makeShards(10), owners: empty(10), executors: before }, {
    replicas: 3,
  });
  const after = [...before, { id: "c1", metadata: { zone: "z2" } }, {
    id: "c2",
    metadata: { zone: "z2" },
  }];
  const limited = planReplicas({ shards: makeShards(10), owners: first.owners, executors: after }, {
    replicas: 3,
    maxMoves: 4,
  });
  assert.equal(limited.moves, 4);
  assert.equal(limited.zoneSpreadViolations, 6);
  const full = planReplicas({ shards: makeShards(10), owners: first.owners, executors: after }, {
    replicas: 3,
  });
  assert.equal(full.zoneSpreadViolations, 0);
  assertValid(full.owners, after, 3);
  // Only moves changed owners (sets were full), and primaries stayed.
  assert.equal(full.added, full.moves);
  full.owners.forEach((set, s) => assert.equal(set[0], first.owners[s]![0]));
});

Deno.test("planReplicas keeps a balanced assignment as it is", () => {
  const executors = makeExecutors(7, 3);
  const first = planReplicas({ shards: makeShards(50), owners: empty(50), executors }, {
    replicas: 3,
  });
  const again = planReplicas({ shards: makeShards(50), owners: first.owners, executors }, {
    replicas: 3,
  });
  assert.deepEqual(again.owners, first.owners);
  assert.equal(again.moves + again.added + again.removed, 0);
});

Deno.test("planReplicas drops surplus owners from the end when replicas shrinks", () => {
  const plan = planReplicas({
    shards: ["s"],
    owners: [["c", "a", "b"]],
    executors: ["a", "b", "c"],
  }, {
    replicas: 2,
  });
  assert.deepEqual(plan.owners, [["c", "a"]]);
  assert.equal(plan.removed, 1);
});

Deno.test("planReplicas rejects bad options", () => {
  const input = { shards: ["s"], owners: [[]], executors: ["a"] };
  assert.throws(() => planReplicas(input, { replicas: 1.5 }), RangeError);
  assert.throws(() => planReplicas(input, { replicas: 1, maxMoves: -1 }), RangeError);
  assert.throws(() => planReplicas({ ...input, owners: [] }, { replicas: 1 }), RangeError);
  assert.throws(
    () => planReplicas({ ...input, executors: ["a", "a"] }, { replicas: 1 }),
    RangeError,
  );
});

Deno.test("planReplicas property: valid, spread, balanced within each zone, deterministic", () => {
  const random = prng(7);
  for (let round = 0; round < 150; round++) {
    const executors = randomExecutors(random, 1 + randomBelow(random, 14), 4);
    const ids = executors.map((e) => e.id);
    const n = randomBelow(random, 80);
    const k = 1 + randomBelow(random, 4);
    const owners = Array.from(
      { length: n },
      () =>
        Array.from(
          { length: randomBelow(random, k + 2) },
          () => random() < 0.15 ? "ghost" : ids[randomBelow(random, ids.length)]!,
        ),
    );
    const input = { shards: makeShards(n), owners, executors };
    const plan = planReplicas(input, { replicas: k });
    const width = Math.min(k, ids.length);
    assertValid(plan.owners, executors, width);
    assert.equal(plan.zoneSpreadViolations, 0);
    // Within a zone no executor holds two more than another.
    const zones = zonesOf(executors);
    const counts = countsOf(plan.owners, ids);
    for (const zone of new Set(zones.values())) {
      const inZone = counts.filter((_, i) => zones.get(ids[i]!) === zone);
      assert.ok(Math.max(...inZone) - Math.min(...inZone) <= 1, `zone ${zone}: ${inZone}`);
    }
    // Same input in another order, same answer.
    const shuffled = { ...input, executors: [...executors].reverse() };
    assert.deepEqual(planReplicas(shuffled, { replicas: k }).owners, plan.owners);
  }
});

Deno.test("planReplicas property: an executor leaving changes only the sets it was in", () => {
  const random = prng(11);
  for (let round = 0; round < 100; round++) {
    const executors = randomExecutors(random, 3 + randomBelow(random, 12), 3);
    const n = 1 + randomBelow(random, 60);
    const k = 1 + randomBelow(random, 3);
    const first = planReplicas({ shards: makeShards(n), owners: empty(n), executors }, {
      replicas: k,
    });
    const gone = executors[randomBelow(random, executors.length)]!.id;
    const rest = executors.filter((e) => e.id !== gone);
    const next = planReplicas({ shards: makeShards(n), owners: first.owners, executors: rest }, {
      replicas: k,
      maxMoves: 0,
    });
    assert.equal(next.moves, 0);
    next.owners.forEach((set, s) => {
      const before = first.owners[s]!;
      if (!before.includes(gone)) return assert.deepEqual(set, before);
      const kept = before.filter((id) => id !== gone);
      assert.deepEqual(set.slice(0, kept.length), kept);
      assert.equal(set.length, Math.min(k, rest.length));
    });
    assert.equal(next.removed, first.owners.filter((set) => set.includes(gone)).length);
  }
});

Deno.test("planReplicas property: a joining executor takes its share within the move budget", () => {
  const random = prng(13);
  for (let round = 0; round < 100; round++) {
    const executors = makeExecutors(3 + randomBelow(random, 10), 0);
    const n = 10 + randomBelow(random, 100);
    const k = 1 + randomBelow(random, 3);
    const first = planReplicas({ shards: makeShards(n), owners: empty(n), executors }, {
      replicas: k,
    });
    const joined = [...executors, { id: "new" }];
    const budget = randomBelow(random, 20);
    const next = planReplicas({ shards: makeShards(n), owners: first.owners, executors: joined }, {
      replicas: k,
      maxMoves: budget,
    });
    assert.ok(next.moves <= budget);
    assert.equal(next.added, next.moves);
    const fair = Math.floor((n * Math.min(k, joined.length)) / joined.length);
    const taken = countsOf(next.owners, ["new"])[0]!;
    assert.equal(taken, Math.min(budget, fair));
  }
});
