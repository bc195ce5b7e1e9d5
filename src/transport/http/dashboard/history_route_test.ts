import assert from "node:assert/strict";
import { NamespaceNotFoundError } from "../../../core/errors.ts";
import type { HistoryEvent } from "../../../core/history_event.ts";
import type { HealthStatus } from "../../../service/mod.ts";
import { historyResponse } from "./history_route.ts";

const OK: HealthStatus = { storeReachable: true, synced: true, ready: true, checkedAtMs: 1 };

Deno.test("history answers the events read since the time asked", async () => {
  let asked: unknown;
  const res = await historyResponse(
    {
      health: { status: OK },
      history: {
        read: (_ns, query) => {
          asked = query;
          return Promise.resolve([
            { id: "1", atMs: 5, type: "leader_changed", text: "x" } as HistoryEvent,
          ]);
        },
      },
    },
    "orders",
    1_000,
  );
  assert.equal(res.status, 200);
  assert.deepEqual(asked, { sinceMs: 1_000 });
  assert.equal((await res.json()).events.length, 1);
});

Deno.test("history is unavailable, in plain words, while the instance knows its store is unreachable", async () => {
  let reads = 0;
  const res = await historyResponse(
    {
      health: {
        status: {
          ...OK,
          storeReachable: false,
          ready: false,
          error: "the store has not answered for 3.0 s",
        },
      },
      history: { read: () => (reads++, Promise.resolve([])) },
    },
    "orders",
    0,
  );
  assert.equal(res.status, 503);
  assert.equal(
    (await res.json()).error,
    "the store is unreachable (the store has not answered for 3.0 s), so this instance cannot read the history",
  );
  assert.equal(reads, 0, "it does not try");
});

Deno.test("a history read the store does not answer in time is given up with a 503", async () => {
  const started = performance.now();
  const res = await historyResponse(
    {
      health: { status: OK },
      history: { read: () => new Promise(() => {}) },
    },
    "orders",
    0,
    { timeoutMs: 50 },
  );
  assert.equal(res.status, 503);
  assert.equal((await res.json()).error, "the store did not answer the history read within 0.05 s");
  assert.ok(performance.now() - started < 2_000);
});

Deno.test("a failed history read says why; a domain error keeps its status", async () => {
  const failed = await historyResponse(
    {
      health: { status: OK },
      history: { read: () => Promise.reject(new Error("connection refused")) },
    },
    "orders",
    0,
  );
  assert.equal(failed.status, 503);
  assert.equal((await failed.json()).error, "the history could not be read: connection refused");
  const missing = await historyResponse(
    {
      health: { status: OK },
      history: { read: () => Promise.reject(new NamespaceNotFoundError("orders")) },
    },
    "orders",
    0,
  );
  assert.equal(missing.status, 404);
});
