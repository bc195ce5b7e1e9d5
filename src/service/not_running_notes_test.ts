import assert from "node:assert/strict";
import { NotRunningNotes } from "./not_running_notes.ts";

const owned = () => true;

Deno.test("a not-running set is recorded once it has held for settleMs, then once when it runs again", () => {
  const notes = new NotRunningNotes({ settleMs: 2_000, minGapMs: 5_000 });
  assert.equal(notes.observe("e1", [], 0, owned), undefined);
  assert.equal(notes.size, 0, "an executor running everything is not kept");
  assert.equal(notes.observe("e1", ["0", "1"], 1_000, owned), undefined);
  assert.equal(notes.observe("e1", ["0", "1"], 2_999, owned), undefined);
  const stopped = notes.observe("e1", ["0", "1"], 3_000, owned);
  assert.equal(stopped?.type, "shards_not_running");
  assert.equal(stopped?.executorId, "e1");
  assert.deepEqual(stopped?.shardKeys, ["0", "1"]);
  assert.equal(stopped?.text, "executor e1 owns 2 shards it does not run: 0, 1");
  for (let t = 3_500; t < 20_000; t += 500) {
    assert.equal(notes.observe("e1", ["0", "1"], t, owned), undefined, "unchanged: no event");
  }
  assert.equal(notes.observe("e1", [], 20_000, owned), undefined, "not settled yet");
  const again = notes.observe("e1", [], 22_000, (s) => s === "0");
  assert.equal(again?.type, "shards_running_again");
  assert.equal(
    again?.text,
    "executor e1 runs its shards again (2 were owned but not running; 1 of them moved away meanwhile)",
  );
});

Deno.test("a set that flaps faster than settleMs is never recorded", () => {
  const notes = new NotRunningNotes({ settleMs: 2_000, minGapMs: 5_000 });
  for (let t = 0; t < 30_000; t += 500) {
    const shards = (t / 500) % 2 === 0 ? ["3"] : [];
    assert.equal(notes.observe("e1", shards, t, owned), undefined);
  }
});

Deno.test("events of one executor are at least minGapMs apart; the latest set is the one recorded", () => {
  const notes = new NotRunningNotes({ settleMs: 1_000, minGapMs: 10_000 });
  assert.ok(notes.observe("e1", ["1"], 0, owned) === undefined);
  assert.equal(notes.observe("e1", ["1"], 1_000, owned)?.type, "shards_not_running");
  assert.equal(notes.observe("e1", ["1", "2"], 2_000, owned), undefined);
  assert.equal(notes.observe("e1", ["1", "2", "3"], 3_000, owned), undefined);
  assert.equal(notes.observe("e1", ["1", "2", "3"], 10_999, owned), undefined);
  const later = notes.observe("e1", ["1", "2", "3"], 11_000, owned);
  assert.equal(later?.text, "executor e1 owns 3 shards it does not run: 1, 2, 3 (was 1)");
});

Deno.test("executors not observed in a round are forgotten", () => {
  const notes = new NotRunningNotes({ settleMs: 0, minGapMs: 0 });
  assert.equal(notes.observe("e1", ["1"], 0, owned)?.type, "shards_not_running");
  notes.endRound();
  assert.equal(notes.size, 1);
  notes.endRound();
  assert.equal(notes.size, 0);
  assert.equal(notes.observe("e1", ["1"], 1, owned)?.type, "shards_not_running", "starts over");
});
