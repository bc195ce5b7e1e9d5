import assert from "node:assert/strict";
import { ChangeFeed } from "./change_feed.ts";
import { diffPlacements } from "./diff.ts";
import { applyUpdate } from "./placement.ts";
import { snapshot } from "./_fake_transport.ts";
import type { Placement, PlacementUpdate } from "./types.ts";

/** A feed and a `publish(update)` that applies and diffs like the spectator does. */
function feedOf() {
  const feed = new ChangeFeed();
  let current: Placement | undefined;
  const publish = (update: PlacementUpdate) => {
    const next = applyUpdate(current, update, 0);
    feed.publish(next, diffPlacements(current, next));
    current = next;
  };
  return { feed, publish };
}

Deno.test("a reader that keeps up gets the current placement, then every change", async () => {
  const { feed, publish } = feedOf();
  const reader = feed.subscribe();
  const first = reader.next();
  publish(snapshot({ a: ["0", "1"] }));
  const item = (await first).value!;
  assert.equal(item.version, 1);
  assert.equal(item.previousVersion, 0);
  assert.deepEqual(item.added, ["0", "1"]);
  publish(snapshot({ a: ["0"], b: ["1"] }));
  const second = (await reader.next()).value!;
  assert.equal(second.version, 2);
  assert.equal(second.previousVersion, 1);
  assert.deepEqual(second.moved, [{ shard: "1", from: "a", to: "b" }]);
  feed.close();
  assert.equal((await reader.next()).done, true);
});

Deno.test("a slow reader skips versions and gets one change diffed from what it saw last", async () => {
  const { feed, publish } = feedOf();
  publish(snapshot({ a: ["0", "1", "2"] }));
  const reader = feed.subscribe();
  assert.equal((await reader.next()).value?.version, 1);
  publish(snapshot({ a: ["0", "1"], b: ["2"] })); // 2 moves to b
  publish(snapshot({ a: ["0"], b: ["1", "2"] })); // 1 moves to b
  publish(snapshot({ b: ["0", "1", "2"] })); //      0 moves to b
  const item = (await reader.next()).value!;
  assert.equal(item.version, 4);
  assert.equal(item.previousVersion, 1);
  assert.deepEqual(item.moved.map((m) => m.shard).sort(), ["0", "1", "2"]);
  assert.ok(item.moved.every((m) => m.from === "a" && m.to === "b"));
  feed.close();
});

Deno.test("a reader ends when its signal aborts while it waits", async () => {
  const { feed, publish } = feedOf();
  publish(snapshot({ a: ["0"] }));
  const controller = new AbortController();
  const reader = feed.subscribe(controller.signal);
  await reader.next();
  const waiting = reader.next();
  controller.abort();
  assert.equal((await waiting).done, true);
  feed.close();
});

Deno.test("readers that start before the first placement wait for it; close ends them all", async () => {
  const { feed, publish } = feedOf();
  const readers = [feed.subscribe(), feed.subscribe()];
  const firsts = readers.map((r) => r.next());
  publish(snapshot({ a: ["0"] }));
  for (const first of firsts) assert.equal((await first).value?.version, 1);
  const ends = readers.map((r) => r.next());
  feed.close();
  for (const end of ends) assert.equal((await end).done, true);
});
