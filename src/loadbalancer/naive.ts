import { ExecutorHeap } from "./_executor_heap.ts";
import { groupByOwner } from "./_group_by_owner.ts";
import { validateBalance } from "./_validate.ts";
import type { BalanceInput, BalanceOptions, LoadBalancer } from "./types.ts";

/**
 * The count-based load balancer: it ignores loads and evens out the number of
 * shards per executor.
 *
 * 1. Every unowned shard, in shard order, goes to the executor with the fewest
 *    shards (ties: lowest index). This never counts against `maxMoves`.
 * 2. Then, within `maxMoves`, it moves one shard at a time from the executor
 *    with the most shards to the one with the fewest, until every executor
 *    holds floor or ceil of the mean. Each such move is needed by any balanced
 *    result, so the number of moves is the least possible; an already balanced
 *    assignment moves nothing (sticky).
 *
 * Runs in O((shards + moves) · log executors) with typed arrays only.
 *
 * @example An executor joins and takes its share
 * ```ts
 * import assert from "node:assert/strict";
 * import { naiveLoadBalancer } from "./naive.ts";
 *
 * const owners = naiveLoadBalancer.plan({
 *   shards: ["a", "b", "c", "d"],
 *   owners: Int32Array.of(0, 0, 0, 0),
 *   loads: new Float64Array(4).fill(NaN),
 *   executors: ["x", "y"],
 * }, { maxMoves: 10 });
 * assert.deepEqual([...owners], [0, 0, 1, 1]);
 * ```
 */
export const naiveLoadBalancer: LoadBalancer = {
  name: "naive",
  plan(input: BalanceInput, options: BalanceOptions): Int32Array {
    validateBalance(input, options);
    const n = input.shards.length;
    const e = input.executors.length;
    const owners = Int32Array.from(input.owners);
    if (e === 0) return owners.fill(-1);
    const counts = new Float64Array(e);
    let unowned = 0;
    for (let s = 0; s < n; s++) {
      const owner = owners[s]!;
      if (owner < 0) unowned++;
      else counts[owner]!++;
    }
    if (unowned > 0) assignUnowned(owners, counts);
    if (options.maxMoves > 0) moveExtraShards(owners, counts, options.maxMoves, input.pinned);
    return owners;
  },
};

function assignUnowned(owners: Int32Array, counts: Float64Array): void {
  const fewest = ExecutorHeap.of(counts, counts, "min");
  for (let s = 0; s < owners.length; s++) {
    if (owners[s]! >= 0) continue;
    const target = fewest.peek();
    owners[s] = target;
    counts[target]!++;
    fewest.update(target);
  }
}

function moveExtraShards(
  owners: Int32Array,
  counts: Float64Array,
  maxMoves: number,
  pinned: Uint8Array | undefined,
): void {
  const e = counts.length;
  let most = 0;
  let fewest = Infinity;
  for (let x = 0; x < e; x++) {
    most = Math.max(most, counts[x]!);
    fewest = Math.min(fewest, counts[x]!);
  }
  if (most - fewest < 2) return;
  // Only executors above the mean give shards away and they never receive,
  // so each donor gives from the end of its original group.
  const { start, members } = groupByOwner(owners, e);
  const end = start.slice(1);
  const donors = ExecutorHeap.of(counts, counts, "max");
  const takers = ExecutorHeap.of(counts, counts, "min");
  for (let moves = 0; moves < maxMoves; moves++) {
    const from = donors.peek();
    const to = takers.peek();
    // A pinned shard (cooldown) stays: skip it.
    while (end[from]! > start[from]! && pinned?.[members[end[from]! - 1]!] === 1) end[from]!--;
    if (counts[from]! - counts[to]! < 2) return;
    if (end[from]! === start[from]!) {
      // Everything movable already left this donor: balance among the others.
      donors.remove(from);
      if (donors.size === 0) return;
      moves--;
      continue;
    }
    const shard = members[--end[from]!]!;
    owners[shard] = to;
    counts[from]!--;
    counts[to]!++;
    donors.update(from);
    donors.update(to);
    takers.update(from);
    takers.update(to);
  }
}
