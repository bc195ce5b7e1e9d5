import assert from "node:assert/strict";
import type { NamespaceView } from "../state/namespace_view.ts";
import { listLeaders } from "./leader_list.ts";

const claim = { term: 7, instanceId: "i-1", sinceMs: 1_000, grpcAddress: "h:1" };
const runtimes = [{ name: "ns", view: { leader: { claim } } as unknown as NamespaceView }];

Deno.test("listLeaders answers from the view when the election's record is not read in time", async () => {
  const stalled = { leader: () => new Promise<never>(() => {}) };
  const started = performance.now();
  const leaders = await listLeaders({
    runtimes,
    leaderStore: stalled,
    instanceId: "i-2",
    advertised: undefined,
    storeLostSince: undefined,
    lastGoodReadMs: () => 42_000,
    boundMs: 50,
  });
  assert.ok(performance.now() - started < 1_000, "answered within the bound");
  assert.deepEqual(leaders, [{
    namespace: "ns",
    unknownSinceMs: 42_000,
    instanceId: "i-1",
    term: 7,
    sinceMs: 1_000,
    grpcAddress: "h:1",
  }]);
});

Deno.test("listLeaders reads the election's record when the store answers in time", async () => {
  const leaders = await listLeaders({
    runtimes,
    leaderStore: { leader: () => Promise.resolve({ instanceId: "i-1", term: 7 }) },
    instanceId: "i-2",
    advertised: undefined,
    storeLostSince: undefined,
    boundMs: 5_000,
  });
  assert.deepEqual(leaders, [{
    namespace: "ns",
    instanceId: "i-1",
    term: 7,
    sinceMs: 1_000,
    grpcAddress: "h:1",
  }]);
});
