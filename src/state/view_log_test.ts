import assert from "node:assert/strict";
import { type ViewChange, ViewLog } from "./view_log.ts";

const owner = (shard: string, to?: string): ViewChange => ({ kind: "owner", shard, owner: to });

Deno.test("view log returns the changes after a revision, oldest first", () => {
  const log = new ViewLog();
  log.reset(10);
  assert.deepEqual(log.since(10), []);
  log.record(11, owner("a", "e1"));
  log.record(11, owner("b", "e1"));
  log.record(13, owner("a"));
  assert.deepEqual(log.since(10), [owner("a", "e1"), owner("b", "e1"), owner("a")]);
  assert.deepEqual(log.since(11), [owner("a")]);
  assert.deepEqual(log.since(12), [owner("a")]);
  assert.deepEqual(log.since(13), []);
  assert.equal(log.since(9), undefined, "before the reset: unknown");
});

Deno.test("view log drops its oldest half past capacity, never splitting a revision", () => {
  const log = new ViewLog(4);
  log.reset(0);
  for (let r = 1; r <= 3; r++) {
    log.record(r, owner(`${r}a`, "e"));
    log.record(r, owner(`${r}b`, "e"));
  }
  // 6 changes > 4: about half dropped, cut after a whole revision.
  assert.equal(log.since(0), undefined);
  const kept = log.since(3 - 1);
  assert.deepEqual(kept, [owner("3a", "e"), owner("3b", "e")]);
  for (let r = 4; r <= 40; r++) log.record(r, owner(`${r}`, "e"));
  assert.deepEqual(log.since(39), [owner("40", "e")]);
});
