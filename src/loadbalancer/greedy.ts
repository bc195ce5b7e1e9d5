import { ExecutorHeap } from "./_executor_heap.ts";
import { groupByOwner, type OwnerGroups } from "./_group_by_owner.ts";
import { effectiveLoads } from "./_loads.ts";
import { sortByLoad } from "./_sort_by_load.ts";
import { SortedLoads } from "./_sorted_loads.ts";
import { validateBalance } from "./_validate.ts";
import type { BalanceInput, BalanceOptions, LoadBalancer } from "./types.ts";

/** Moves must lower the larger load by more than this share of the mean executor load. */
const RELATIVE_EPSILON = 1e-9;

/**
 * With unequal loads, balancing stops once the gap between the most loaded
 * executor that can still give a shard away and the least loaded one is
 * within this share of the mean executor load: chasing the last percent would
 * move many small shards for little gain, and every move is a handover.
 */
export const BALANCE_TOLERANCE = 0.02;

/**
 * The load-aware load balancer.
 *
 * 1. Unknown loads become the mean of the known ones (1 if none is known);
 *    when all loads are equal they count as 1 each, so equal loads balance by
 *    count.
 * 2. Unowned shards are assigned heaviest first (ties: lowest shard index),
 *    each to the executor with the least total load (ties: fewest shards, then
 *    lowest index). This never counts against `maxMoves`.
 * 3. Then, within `maxMoves`, it repeatedly takes the executor with the most
 *    load and moves the shard that best narrows its gap to the least-loaded
 *    executor, but only if the larger of the two loads drops. An executor with
 *    no such shard is skipped; balancing stops when no executor has one, or,
 *    with unequal loads, once that gap is within {@linkcode BALANCE_TOLERANCE}
 *    of the mean executor load.
 *
 * With equal loads this ends with floor or ceil of the mean shards on every
 * executor (32 shards on 3 executors: 10/11/11), and a balanced assignment
 * moves nothing. Runs in O(shards + (unowned + moves) · log executors) plus
 * sorting the shards of the executors that give shards away, with typed
 * arrays and no per-shard objects.
 *
 * @example The hottest shard leaves the hottest executor
 * ```ts
 * import assert from "node:assert/strict";
 * import { greedyLoadBalancer } from "./greedy.ts";
 *
 * const owners = greedyLoadBalancer.plan({
 *   shards: ["hot", "a", "b", "c"],
 *   owners: Int32Array.of(0, 0, 0, 0),
 *   loads: Float64Array.of(5, 1, 1, 1),
 *   executors: ["x", "y"],
 * }, { maxMoves: 10 });
 * assert.deepEqual([...owners], [1, 0, 0, 0]);
 * ```
 */
export const greedyLoadBalancer: LoadBalancer = {
  name: "greedy",
  plan(input: BalanceInput, options: BalanceOptions): Int32Array {
    validateBalance(input, options);
    const n = input.shards.length;
    const e = input.executors.length;
    const owners = Int32Array.from(input.owners);
    if (e === 0) return owners.fill(-1);
    const loads = effectiveLoads(input.loads);
    const load = new Float64Array(e);
    const count = new Float64Array(e);
    let unowned = 0;
    for (let s = 0; s < n; s++) {
      const owner = owners[s]!;
      if (owner < 0) {
        unowned++;
      } else {
        load[owner]! += loads[s]!;
        count[owner]!++;
      }
    }
    if (unowned > 0) assignUnowned(owners, loads, load, count, unowned);
    if (options.maxMoves > 0 && e > 1) {
      const uniform = loads.every((w) => w === 1);
      new Rebalance(owners, loads, load, count, input.pinned).run(
        options.maxMoves,
        uniform ? 0 : BALANCE_TOLERANCE,
        uniform ? 0 : options.minImprovement ?? 0,
      );
    }
    return owners;
  },
};

function assignUnowned(
  owners: Int32Array,
  loads: Float64Array,
  load: Float64Array,
  count: Float64Array,
  unowned: number,
): void {
  const pending = new Int32Array(unowned);
  for (let s = 0, i = 0; s < owners.length; s++) {
    if (owners[s]! < 0) pending[i++] = s;
  }
  const order = sortByLoad(pending, loads, "descending");
  const coolest = ExecutorHeap.of(load, count, "min");
  for (let i = 0; i < order.length; i++) {
    const shard = order[i]!;
    const target = coolest.peek();
    owners[shard] = target;
    load[target]! += loads[shard]!;
    count[target]!++;
    coolest.update(target);
  }
}

/** The balancing moves of one pass; mutates `owners`, `load` and `count`. */
class Rebalance {
  readonly #owners: Int32Array;
  readonly #loads: Float64Array;
  readonly #load: Float64Array;
  readonly #count: Float64Array;
  readonly #epsilon: number;
  /** Per executor whose list is not built: its lightest shard above epsilon. */
  readonly #lightest: Float64Array;
  readonly #lists: (SortedLoads | undefined)[];
  /** Shards moved to executors whose list is not built yet, as linked lists. */
  readonly #incoming: Int32Array;
  readonly #nextIncoming: Int32Array;
  #groups: OwnerGroups | undefined;
  /** Shards that stay where they are (cooldown). */
  readonly #pinned: Uint8Array | undefined;

  constructor(
    owners: Int32Array,
    loads: Float64Array,
    load: Float64Array,
    count: Float64Array,
    pinned: Uint8Array | undefined,
  ) {
    const e = load.length;
    this.#pinned = pinned;
    this.#owners = owners;
    this.#loads = loads;
    this.#load = load;
    this.#count = count;
    let total = 0;
    for (let x = 0; x < e; x++) total += load[x]!;
    const epsilon = this.#epsilon = (RELATIVE_EPSILON * total) / e;
    const lightest = this.#lightest = new Float64Array(e).fill(Infinity);
    for (let s = 0; s < owners.length; s++) {
      const weight = loads[s]!;
      const owner = owners[s]!;
      if (pinned?.[s] === 1) continue;
      if (weight > epsilon && weight < lightest[owner]!) lightest[owner] = weight;
    }
    this.#lists = new Array(e);
    this.#incoming = new Int32Array(e).fill(-1);
    this.#nextIncoming = new Int32Array(owners.length);
  }

  run(maxMoves: number, tolerance: number, minImprovement: number): void {
    const load = this.#load;
    const epsilon = this.#epsilon;
    let total = 0;
    for (let x = 0; x < load.length; x++) total += load[x]!;
    const enough = (total / load.length) * tolerance;
    // Hysteresis: a gap this small never starts balancing (load noise).
    const trigger = (total / load.length) * minImprovement;
    const donors = ExecutorHeap.of(load, this.#count, "max");
    const takers = ExecutorHeap.of(load, this.#count, "min");
    let moves = 0;
    while (moves < maxMoves && donors.size > 0) {
      const from = donors.peek();
      const to = takers.peek();
      const gap = load[from]! - load[to]!;
      // Every remaining donor has at most `from`'s load: nothing can improve,
      // or nothing needs to.
      if (gap <= epsilon || gap <= enough || (moves === 0 && gap <= trigger)) return;
      // A move exists iff some shard weighs in (epsilon, gap - epsilon); checking
      // the lightest one first avoids sorting the shards of executors that keep them.
      const p = this.#lists[from] !== undefined || this.#lightest[from]! < gap - epsilon
        ? this.#listOf(from).best(gap, epsilon)
        : -1;
      if (p < 0) {
        donors.remove(from);
        continue;
      }
      const list = this.#listOf(from);
      const shard = list.shardAt(p);
      const weight = list.loadAt(p);
      list.removeAt(p);
      this.#receive(to, shard, weight);
      load[from]! -= weight;
      load[to]! += weight;
      this.#count[from]!--;
      this.#count[to]!++;
      donors.update(from);
      takers.update(from);
      takers.update(to);
      if (donors.has(to)) donors.update(to);
      else donors.push(to);
      moves++;
    }
  }

  #receive(executor: number, shard: number, weight: number): void {
    this.#owners[shard] = executor;
    const list = this.#lists[executor];
    if (list !== undefined) {
      list.insert(shard, weight);
    } else {
      if (weight > this.#epsilon && weight < this.#lightest[executor]!) {
        this.#lightest[executor] = weight;
      }
      this.#nextIncoming[shard] = this.#incoming[executor]!;
      this.#incoming[executor] = shard;
    }
  }

  /**
   * Builds an executor's sorted list the first time it gives a shard away.
   * Until then it has lost no shard, so its shards are its original group
   * plus what it received. The groups are taken on the first call, which comes
   * before the first move, so they are the owners at the start of the pass.
   */
  #listOf(executor: number): SortedLoads {
    const built = this.#lists[executor];
    if (built !== undefined) return built;
    const groups = this.#groups ??= groupByOwner(this.#owners, this.#load.length);
    const first = groups.start[executor]!;
    const all = groups.members.subarray(first, groups.start[executor + 1]!);
    const pinned = this.#pinned;
    const original = pinned === undefined ? all : all.filter((s) => pinned[s] !== 1);
    let received = 0;
    for (let s = this.#incoming[executor]!; s >= 0; s = this.#nextIncoming[s]!) received++;
    const shards = new Int32Array(original.length + received);
    shards.set(original);
    let i = original.length;
    for (let s = this.#incoming[executor]!; s >= 0; s = this.#nextIncoming[s]!) shards[i++] = s;
    this.#incoming[executor] = -1;
    const list = new SortedLoads(sortByLoad(shards, this.#loads, "ascending"), this.#loads);
    this.#lists[executor] = list;
    return list;
  }
}
