import assert from "node:assert/strict";
import type { ChaosEvent } from "./events.ts";
import { ownerMoves } from "./owner_moves.ts";

const owner = (at: number, shard: string, o: string | null, spectator = "spectator-0") =>
  ({ type: "owner", at, spectator, namespace: "ns", shard, owner: o }) as const;

Deno.test("moves are owner changes seen by the first spectator, minus ignored shards", () => {
  const events: ChaosEvent[] = [
    owner(0, "1", "a"),
    owner(0, "2", "a"),
    owner(0, "3", null),
    owner(5, "3", "b"), // a first owner: no move
    owner(6, "1", "b"),
    owner(6, "1", "c", "spectator-1"), // another spectator's view: not counted
    owner(7, "2", null), // drained
    owner(8, "1", "b"), // repeated after a reconnect: no change
  ];
  assert.deepEqual(ownerMoves(events, 1, 100, new Set(["ns/2"])), ["ns/1: a -> b"]);
  assert.deepEqual(ownerMoves(events, 1, 100), ["ns/1: a -> b", "ns/2: a -> -"]);
  assert.deepEqual(ownerMoves(events, 7, 100), ["ns/2: a -> -"]);
});
