import assert from "node:assert/strict";
import type { ChaosEvent } from "./events.ts";
import { spectatorMismatches } from "./spectator_view.ts";

const start = (at: number, executor: string) =>
  ({
    type: "start",
    at,
    process: executor,
    executor,
    namespace: "n",
    shard: "1",
    token: "1",
  }) as const;
const owner = (at: number, who: string | null) =>
  ({ type: "owner", at, spectator: "s", namespace: "n", shard: "1", owner: who }) as const;

Deno.test("a spectator whose last owner runs the shard agrees", () => {
  assert.equal(spectatorMismatches([start(0, "a"), owner(1, "a")], 10), 0);
});

Deno.test("a spectator that still names the old owner disagrees", () => {
  const events: ChaosEvent[] = [
    start(0, "a"),
    owner(1, "a"),
    { type: "stop", at: 5, process: "a", executor: "a", namespace: "n", shard: "1" },
    start(6, "b"),
  ];
  assert.equal(spectatorMismatches(events, 10), 1);
  assert.equal(spectatorMismatches([...events, owner(7, "b")], 10), 0);
});

Deno.test("a spectator that sees no owner while one runs disagrees", () => {
  assert.equal(spectatorMismatches([start(0, "a"), owner(1, null)], 10), 1);
});
