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
  historyNamespaces(): Promise<string[]> {
    return Promise.resolve(this.events.length > 0 ? ["ns"] : []);
  }
}

function log(store: HistoryStore, lines: string[] = []) {
  const logger = jsonLogger("warn", {}, (line) => lines.push(line));
  return new HistoryLog(store, { clock: fakeClock(1_000).clock, logger, writer: "i1" });
}

/** A log over `store` on fake time, with its warnings in `lines`. */
function onFakeTime(store: HistoryStore, options: { signal?: AbortSignal } = {}) {
  const lines: string[] = [];
  const fake = fakeClock(1_000);
  const logger = jsonLogger("warn", {}, (line) => lines.push(line));
  const history = new HistoryLog(store, { clock: fake.clock, logger, writer: "i1", ...options });
  return { history, lines, fake };
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

Deno.test("history: an event the store refuses is tried again until the store answers", async () => {
  const store = new CountingStore();
  store.failing = true;
  const { history, lines, fake } = onFakeTime(store);
  const written = Promise.all([history.record("ns", note(1)), history.record("ns", note(2))]);
  for (let i = 0; i < 5; i++) {
    await new Promise((r) => setTimeout(r, 5));
    await fake.tick(2_000);
  }
  store.failing = false;
  for (let i = 0; i < 5 && store.events.length === 0; i++) {
    await new Promise((r) => setTimeout(r, 5));
    await fake.tick(15_000);
  }
  await written;
  assert.deepEqual(store.events.map((e) => e.text), ["executor e1 joined", "executor e2 joined"]);
  assert.equal(lines.length, 0, "nothing dropped");
});

Deno.test("history: an event the store refuses for 5 minutes is logged and dropped; recording never throws", async () => {
  const store = new CountingStore();
  store.failing = true;
  const { history, lines, fake } = onFakeTime(store);
  const written = Promise.all([history.record("ns", note(1)), history.record("ns", note(2))]);
  for (let i = 0; i < 40 && lines.length === 0; i++) {
    await new Promise((r) => setTimeout(r, 3));
    await fake.tick(15_000);
  }
  await written;
  assert.equal(lines.length, 1);
  assert.equal(JSON.parse(lines[0]!).msg, "history event not recorded");
  store.failing = false;
  await history.record("ns", note(3));
  assert.deepEqual(store.events.map((e) => e.text), ["executor e3 joined"]);
});

Deno.test("history: a stopping instance stops trying at once", async () => {
  const store = new CountingStore();
  store.failing = true;
  const stop = new AbortController();
  const { history, lines } = onFakeTime(store, { signal: stop.signal });
  const written = history.record("ns", note(1));
  await new Promise((r) => setTimeout(r, 10));
  stop.abort();
  await written;
  assert.equal(lines.length, 1, "dropped with a warning");
});

Deno.test("history: an event can be recorded at an earlier time (an outage told once it ended)", async () => {
  const store = new CountingStore();
  const history = log(store);
  await history.record("ns", { ...note(1), atMs: 500 });
  assert.equal(store.events[0]!.atMs, 500);
  assert.ok(store.events[0]!.id.startsWith("000000000000500-"));
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

/** A history store in a map (the service may not import a store adapter). */
function memoryStore(): HistoryStore {
  const logs = new Map<string, HistoryEvent[]>();
  return {
    appendHistory(ns, events) {
      logs.set(ns, [...(logs.get(ns) ?? []), ...events]);
      return Promise.resolve();
    },
    readHistory: (ns, query) => Promise.resolve((logs.get(ns) ?? []).slice(0, query.limit)),
    trimHistory(ns, beforeMs, keep) {
      const log = logs.get(ns) ?? [];
      const kept = log.filter((e) => e.atMs >= beforeMs).slice(-keep);
      if (kept.length > 0) logs.set(ns, kept);
      else logs.delete(ns);
      return Promise.resolve(log.length - kept.length);
    },
    historyNamespaces: () => Promise.resolve([...logs.keys()].sort()),
  };
}

Deno.test("history: the sweep drops events past their retention, unread, deleted namespace or live", async () => {
  const store = memoryStore();
  const fake = fakeClock(1_000);
  const logger = jsonLogger("warn", {}, () => {});
  const history = new HistoryLog(store, {
    clock: fake.clock,
    logger,
    writer: "i1",
    retention: { maxAgeMs: 60_000, maxEvents: 100 },
  });
  await history.record("gone", note(1));
  await history.record("live", note(2));
  await fake.tick(30_000);
  await history.record("live", note(3));
  assert.equal(history.sweepEveryMs, 15_000);

  await fake.tick(29_000); // within the retention: kept, still readable
  assert.equal(await history.sweep(), 0);
  assert.deepEqual(await store.historyNamespaces(), ["gone", "live"]);

  await fake.tick(2_000); // past it for the first two: the deleted namespace's goes, and the live one's old event
  assert.equal(await history.sweep(), 2);
  assert.deepEqual(await store.historyNamespaces(), ["live"]);
  assert.equal(await history.readRemoved("gone"), undefined);
  assert.deepEqual((await history.read("live")).length, 1);
});
