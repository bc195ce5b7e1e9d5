/**
 * Shards taken from an owner within a window, as the spectator saw them:
 * an owner change from one executor to another, or to none. During a fault
 * that harms no executor (a clock fault, slow links), every such move is
 * needless; during others it is the expected reaction.
 *
 * @module
 */
import type { ChaosEvent } from "./events.ts";

/**
 * `namespace/shard: from -> to` for every shard the spectator(s) saw taken
 * from an owner at a time in `[from, until)` (the first spectator's view;
 * an owner repeated after a reconnect is no change), except the shards in
 * `ignore` (`namespace/shard`: the drained ones).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { ownerMoves } from "./owner_moves.ts";
 *
 * const owner = (at: number, o: string | null) =>
 *   ({ type: "owner", at, spectator: "spectator-0", namespace: "ns", shard: "1", owner: o }) as const;
 * const events = [owner(0, "a"), owner(10, "a"), owner(20, "b"), owner(30, null)];
 * assert.deepEqual(ownerMoves(events, 5, 100), ["ns/1: a -> b", "ns/1: b -> -"]);
 * assert.deepEqual(ownerMoves(events, 25, 100), ["ns/1: b -> -"]);
 * ```
 */
export function ownerMoves(
  events: readonly ChaosEvent[],
  from: number,
  until: number,
  ignore: ReadonlySet<string> = new Set(),
): string[] {
  const spectator = events.find((e) => e.type === "owner")?.spectator;
  const owners = new Map<string, string | null>();
  const moves: string[] = [];
  for (const e of events) {
    if (e.type !== "owner" || e.spectator !== spectator) continue;
    const key = `${e.namespace}/${e.shard}`;
    const before = owners.get(key) ?? null;
    owners.set(key, e.owner);
    if (e.at < from || e.at >= until || before === null || before === e.owner) continue;
    if (ignore.has(key)) continue;
    moves.push(`${key}: ${before} -> ${e.owner ?? "-"}`);
  }
  return moves;
}
