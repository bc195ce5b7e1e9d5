/**
 * A pass plans the same whether the namespace's owners are kept in maps or,
 * as for a fixed namespace, by shard number (state/fixed_owner_index.ts and
 * the fast path of current_owners.ts).
 */
import assert from "node:assert/strict";
import fc from "fast-check";
import type { ExecutorStatus } from "../core/types.ts";
import { loadBalancerFor } from "../loadbalancer/mod.ts";
import type { NamespaceEvent } from "../store/store.ts";
import { NamespaceState } from "../state/namespace_state.ts";
import { planInput } from "./plan_input.ts";
import { planPass } from "./plan_pass.ts";
import type { BalancedPolicy, ReplicatedPolicy } from "./plan_policy.ts";

const SHARDS = 12;
const IDS = ["e0", "e1", "e2", "e3", "e4"];
/** Shard numbers, one past the end and a key no fixed namespace has (left by a larger shardNum). */
const KEYS = [...Array.from({ length: SHARDS }, (_, i) => String(i)), "12", "x"];

const status = fc.constantFrom<ExecutorStatus>("ACTIVE", "ACTIVE", "ACTIVE", "DRAINING", "UNKNOWN");
const event: fc.Arbitrary<NamespaceEvent> = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.record({ id: fc.constantFrom(...IDS), status }).map(({ id, status }) => ({
      type: "heartbeat" as const,
      executorId: id,
      record: { status, timestampMs: 1 },
    })),
  },
  {
    weight: 4,
    arbitrary: fc.record({
      assign: fc.dictionary(
        fc.constantFrom(...IDS),
        fc.uniqueArray(fc.constantFrom(...KEYS), { maxLength: 6 }),
      ),
      unassign: fc.uniqueArray(fc.constantFrom(...KEYS), { maxLength: 3 }),
      sets: fc.option(
        fc.dictionary(
          fc.constantFrom(...KEYS),
          fc.uniqueArray(fc.constantFrom(...IDS), { minLength: 2, maxLength: 3 }),
        ),
        { nil: undefined },
      ),
    }).map(({ assign, unassign, sets }) => {
      // A shard is assigned once per change, as the store's changes are.
      const seen = new Set<string>();
      const once: Record<string, string[]> = {};
      for (const [id, shards] of Object.entries(assign)) {
        once[id] = shards.filter((s) => !seen.has(s) && seen.add(s));
      }
      const ownSets = Object.fromEntries(
        Object.entries(sets ?? {}).filter(([shard, set]) => once[set[0]!]?.includes(shard)),
      );
      return {
        type: "assignment" as const,
        seq: 1,
        delta: {
          assign: once,
          unassign: unassign.filter((s) => !seen.has(s)),
          remove: [],
          ...(Object.keys(ownSets).length ? { sets: ownSets } : {}),
        },
      };
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      id: fc.constantFrom(...IDS),
      loads: fc.dictionary(
        fc.constantFrom(...KEYS),
        fc.oneof(fc.double({ min: 0, max: 10, noNaN: true }), fc.constant(-1)),
      ),
      done: fc.boolean(),
    }).map(({ id, loads, done }) => ({
      type: "reports" as const,
      executorId: id,
      reports: new Map(
        Object.entries(loads).map((
          [shard, load],
        ) => [shard, { status: done ? "DONE" as const : "READY" as const, load }]),
      ),
    })),
  },
  {
    weight: 1,
    arbitrary: fc.record({ shard: fc.constantFrom(...KEYS), drained: fc.boolean() }).map((
      { shard, drained },
    ) => ({
      type: "drained" as const,
      shardKey: shard,
      drained,
    })),
  },
);

function states(batches: NamespaceEvent[][]): [NamespaceState, NamespaceState] {
  const maps = new NamespaceState("ns", { heartbeatTtlMs: 1_000 });
  const arrays = new NamespaceState("ns", { heartbeatTtlMs: 1_000, shardNum: SHARDS });
  batches.forEach((events, i) => {
    let seq = maps.seq;
    const numbered = events.map((e) => e.type === "assignment" ? { ...e, seq: ++seq } : e);
    maps.apply({ revision: i + 1, events: numbered }, i * 100);
    arrays.apply({ revision: i + 1, events: numbered }, i * 100);
  });
  return [maps, arrays];
}

const balanced = (exclusive: boolean, greedy: boolean): BalancedPolicy => ({
  kind: "balanced",
  universe: { kind: "fixed", shardNum: SHARDS },
  balancer: loadBalancerFor(greedy ? "greedy" : "naive"),
  maxMoves: 4,
  executorRetentionMs: 5_000,
  ...(exclusive ? { exclusive: { leaseMs: 300, maxReliedOn: 2 } } : {}),
});

const replicated: ReplicatedPolicy = {
  kind: "replicated",
  universe: { kind: "fixed", shardNum: SHARDS },
  replicas: 2,
  placement: "balanced",
  zoneKey: "zone",
  seed: 1,
  maxMoves: 4,
  executorRetentionMs: 5_000,
};

Deno.test("a pass plans the same over owners kept in maps and by shard number", () => {
  fc.assert(
    fc.property(
      fc.array(fc.array(event, { minLength: 1, maxLength: 4 }), { minLength: 1, maxLength: 8 }),
      fc.integer({ min: 0, max: 1_500 }),
      fc.boolean(),
      fc.boolean(),
      (batches, later, exclusive, greedy) => {
        const [maps, arrays] = states(batches);
        const now = batches.length * 100 + later;
        assert.ok(planInput(arrays, now).compact, "the fast path is taken");
        for (const policy of [balanced(exclusive, greedy), replicated]) {
          assert.deepEqual(
            planPass(planInput(arrays, now), policy),
            planPass(planInput(maps, now), policy),
          );
        }
      },
    ),
    { numRuns: 400 },
  );
});
