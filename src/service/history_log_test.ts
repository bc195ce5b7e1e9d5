import assert from "node:assert/strict";
import type { HistoryEvent } from "../core/history_event.ts";
import { fakeClock } from "../core/fake_clock.ts";
import { jsonLogger } from "../core/logger.ts";
import type { HistoryStore } from "../store/history_store.ts";
import { HistoryLog } from "./history_log.ts";

/** A store that records each append's size and can be made to fail or to stall. */
class CountingStore implements HistoryStore {
  readonly appends: number[] = [];
  readonly events: HistoryEvent[] = [];
  trims = 0;
  failing = false;
  inFlight = 0;
  mostInFlight = 0;

  async appendHistory(_namespace: string, events: readonly HistoryEvent[]): Promise<void> {
    this.inFlight++;
    this.mostInFlight = Math.max(this.mostInFlight, this.inFlight);
    await new Promise((r) => setTimeout(r, 1));
    this.inFlight--;
    if (this.failing) throw new Error("store down");
    this.appends.push(events.length);
    this.events.push(...events);
  }
  readHistory(): Promise<HistoryEvent[]> {
    return Promise.resolve(this.events);
  }
  trimHistory(): Promise<number> {
    this.trims++;
    return Promise.resolve(0);
  }
}

function log(store: HistoryStore, lines: string[] = []) {
  const logger = jsonLogger("warn", {}, (line) => lines.push(line));
  return new HistoryLog(store, { clock: fakeClock(1_000).clock, logger, writer: "i1" });
}

const note = (i: number) => ({ type: "executor_joined" as const, text: `executor e${i} joined` });

Deno.test("history: a burst of events is written in a few batched appends, one at a time", async () => {
  const store = new CountingStore();
  const history = log(store);
  await Promise.all(Array.from({ length: 250 }, (_, i) => history.record("ns", note(i))));
  assert.deepEqual(store.appends, [100, 100, 50]);
  assert.equal(store.mostInFlight, 1);
  assert.deepEqual(
    store.events.map((e) => e.text),
    Array.from({ length: 250 }, (_, i) => note(i).text),
  );
  assert.ok(store.trims >= 1, "trimmed to its retention");
  await history.record("ns", note(250));
  assert.deepEqual(store.appends, [100, 100, 50, 1], "a later event is written on its own");
});

Deno.test("history: an event the store refuses is logged and dropped; recording never throws", async () => {
  const store = new CountingStore();
  store.failing = true;
  const lines: string[] = [];
  const history = log(store, lines);
  await Promise.all([history.record("ns", note(1)), history.record("ns", note(2))]);
  assert.equal(lines.length, 1);
  assert.equal(JSON.parse(lines[0]!).msg, "history event not recorded");
  store.failing = false;
  await history.record("ns", note(3));
  assert.deepEqual(store.events.map((e) => e.text), ["executor e3 joined"]);
});

Deno.test("history: past 1,000 waiting events new ones are dropped with a warning", async () => {
  const store = new CountingStore();
  const lines: string[] = [];
  const history = log(store, lines);
  const all = Array.from({ length: 1_005 }, (_, i) => history.record("ns", note(i)));
  await Promise.all(all);
  assert.equal(store.events.length, 1_000);
  assert.equal(lines.length, 5);
});
