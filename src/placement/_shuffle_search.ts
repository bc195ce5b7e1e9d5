/**
 * The stateful search of the shuffle-sharding planner, in the spirit of
 * Route 53's Infima: a record of the executor combinations in use, consulted
 * for every new set. Not part of the public API.
 *
 * @module
 */
import { addOwner, loadTally, type PlanContext, replaceOwner } from "./_context.ts";
import { FragmentIndex } from "./_fragments.ts";
import { pickLeastLoaded } from "./_pick.ts";
import { prng } from "./_prng.ts";
import { depthFirstComplete, randomComplete, type SearchTask } from "./_set_search.ts";

/** Random attempts per set and overlap level before the exhaustive search. */
const ATTEMPTS = 4;
/** Candidate checks the exhaustive search may spend per set and level. */
const DEPTH_FIRST_BUDGET = 20_000;
/** New sets in a row that may exhaust the budget at one level before the level gets only random tries for the rest of the call. */
const LEVEL_FAILURES = 8;
/** Level states: depth-first search allowed, random tries only, no set exists. */
const OPEN = 0;
const HARD = 1;
const PROVEN = 2;
/** Candidate checks the exhaustive search may spend per repair attempt. */
const REPAIR_BUDGET = 2_000;
/** Failed repairs in a row after which repairing stops for the call. */
const REPAIR_FAILURES = 64;

/**
 * Completes and repairs owner sets so that any two share at most `bound`
 * executors where it can, and as few as it can elsewhere.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { createContext } from "./_context.ts";
 * import { ShuffleSearch } from "./_shuffle_search.ts";
 *
 * const ids = ["1", "2", "3", "4", "5", "6", "7", "8"];
 * const shards = Array.from({ length: 28 }, (_, i) => String(i));
 * const ctx = createContext({ shards, owners: shards.map(() => []), executors: ids }, 2, "zone");
 * const search = new ShuffleSearch(ctx, 1, 0);
 * for (let s = 0; s < 28; s++) search.complete(s);
 * const pairs = new Set(shards.map((_, s) => [...ctx.table.members(s)].sort().join()));
 * assert.equal(pairs.size, 28);
 * ```
 */
export class ShuffleSearch {
  readonly #ctx: PlanContext;
  readonly #bound: number;
  readonly #random: () => number;
  /** Fragment records by fragment size (bound + 1 .. width), built on first use. */
  readonly #levels: (FragmentIndex | undefined)[] = [];
  /** OPEN, HARD or PROVEN per overlap level (PROVEN: no new set fits at that level). */
  readonly #state: Uint8Array;
  readonly #failures: Int32Array;

  /** A search over `ctx` for overlap ≤ `bound`, randomized by `seed`. */
  constructor(ctx: PlanContext, bound: number, seed: number) {
    this.#ctx = ctx;
    this.#bound = bound;
    this.#random = prng(seed);
    this.#state = new Uint8Array(ctx.width + 1);
    this.#failures = new Int32Array(ctx.width + 1);
  }

  /**
   * Gives shard `s` owners up to the width. Tries overlap ≤ bound, then
   * bound + 1, … (each by random search, then depth-first search), and
   * finally the least-loaded spread set without overlap constraint. A level
   * where the depth-first search proved that no new set fits is skipped for
   * the rest of the call; one where it ran out of budget for 8 new sets in a
   * row gets only random tries.
   */
  complete(s: number): void {
    const { table, width } = this.#ctx;
    if (table.size(s) >= width) return;
    const fresh = table.size(s) === 0;
    this.#unregister(s);
    const set = [...table.members(s)];
    let done = false;
    for (let b = this.#bound; b < width && !done; b++) {
      if (this.#state[b] === PROVEN) continue;
      const budget = fresh && this.#state[b] === HARD ? 0 : DEPTH_FIRST_BUDGET;
      const result = this.#search({ set, fragments: this.#level(b + 1, s), exclude: -1 }, budget);
      done = result === "found";
      if (!fresh || budget === 0) continue;
      if (result === "found") this.#failures[b] = 0;
      else if (result === "none") this.#state[b] = PROVEN;
      else if (++this.#failures[b]! >= LEVEL_FAILURES) this.#state[b] = HARD;
    }
    for (let i = table.size(s); done && i < set.length; i++) addOwner(this.#ctx, s, set[i]!);
    if (!done) this.#fillLeastLoaded(s);
    this.#register(s);
  }

  /**
   * Replaces one owner of each shard that shares more than `bound`
   * executors with another shard, or whose owners are not spread over zones,
   * when a replacement fixes it; at most `budget` such moves. Levels that
   * were hard or infeasible for new sets get random tries only, and after 64
   * failed shards in a row the call gives up (the next call starts over).
   * Returns the moves made.
   */
  repair(budget: number): number {
    const ctx = this.#ctx;
    const { table, width, index, loads } = ctx;
    const fragments = this.#level(this.#bound + 1, -1);
    let moves = 0;
    let failures = 0;
    for (let s = 0; s < table.shards && moves < budget; s++) {
      if (table.size(s) < width) continue;
      const shared = fragments !== undefined && fragments.shared > 0
        ? fragments.sharedCounts(table.members(s))
        : new Int32Array(width);
      const tally = loadTally(ctx, s);
      const spread = tally.valid;
      if (spread && shared.every((n) => n === 0)) continue;
      const over = (i: number): number => tally.isOver(index.zoneOf[table.get(s, i)]!) ? 1 : 0;
      const slots = [...shared.keys()]
        .filter((i) => shared[i]! > 0 || over(i) === 1)
        .sort((a, b) =>
          over(b) - over(a) || shared[b]! - shared[a]! ||
          loads.count(table.get(s, b)) - loads.count(table.get(s, a)) || b - a
        );
      this.#unregister(s);
      let repaired = false;
      for (const slot of slots) {
        if (repaired) break;
        const x = table.get(s, slot);
        const set = [...table.members(s)].filter((e) => e !== x);
        // Overlap alone: only a set within the bound helps. Zones come first: any
        // bound will do, up to none at all (b = width records no fragments).
        const last = spread ? this.#bound : width;
        for (let b = this.#bound; b <= last && !repaired; b++) {
          // A proof holds for the sets it saw; here one set was taken out, so try anyway.
          const checks = this.#state[b] === OPEN ? REPAIR_BUDGET : 0;
          const task = { set, fragments: this.#level(b + 1, s), exclude: x };
          repaired = this.#search(task, checks) === "found";
        }
        if (repaired) replaceOwner(ctx, s, slot, set[width - 1]!);
      }
      this.#register(s);
      if (repaired) {
        moves++;
        failures = 0;
      } else if (++failures >= REPAIR_FAILURES) break;
    }
    return moves;
  }

  /** The record of (bound + 1)-fragments of every set, if the search built it. */
  get boundLevel(): FragmentIndex | undefined {
    return this.#levels[this.#bound + 1];
  }

  /** Random tries, then (with a budget) the depth-first search. */
  #search(task: SearchTask, budget: number): "found" | "none" | "budget" {
    if (randomComplete(this.#ctx, task, this.#random, ATTEMPTS)) return "found";
    return budget > 0 ? depthFirstComplete(this.#ctx, task, budget) : "budget";
  }

  #fillLeastLoaded(s: number): void {
    const ctx = this.#ctx;
    const tally = loadTally(ctx, s);
    while (ctx.table.size(s) < ctx.width) {
      const e = pickLeastLoaded(ctx, s, tally, s);
      if (e < 0) return;
      addOwner(ctx, s, e);
      tally.add(ctx.index.zoneOf[e]!);
    }
  }

  /** The record of `size`-fragments of every set but shard `skip`'s; undefined when sets are too small. */
  #level(size: number, skip: number): FragmentIndex | undefined {
    const { table, width, index } = this.#ctx;
    if (size > width) return undefined;
    let level = this.#levels[size];
    if (level === undefined) {
      level = this.#levels[size] = new FragmentIndex(size, index.ids.length);
      for (let s = 0; s < table.shards; s++) if (s !== skip) level.addSet(table.members(s));
    }
    return level;
  }

  #register(s: number): void {
    for (const level of this.#levels) level?.addSet(this.#ctx.table.members(s));
  }

  #unregister(s: number): void {
    for (const level of this.#levels) level?.removeSet(this.#ctx.table.members(s));
  }
}
