import assert from "node:assert/strict";
import { sampleLinks } from "./link_load.ts";
import type { ProxyStats } from "./tcp_proxy.ts";

function fake(): { stats: ProxyStats; set(over: Partial<ProxyStats>): void } {
  let stats: ProxyStats = {
    connections: 1,
    callsStarted: 0,
    callsInFlight: 0,
    stalls: 0,
    resets: 0,
  };
  return {
    get stats() {
      return stats;
    },
    set(over) {
      stats = { ...stats, ...over };
    },
  };
}

Deno.test("link load sums an executor's proxies and keeps the baseline apart", async () => {
  const [a, b, c] = [fake(), fake(), fake()];
  a.set({ callsInFlight: 1, callsStarted: 10 });
  b.set({ callsInFlight: 1, callsStarted: 10 });
  const sampling = sampleLinks([[a, b], [c]], ["exec-0", "exec-1"]);
  await sampling.baseline(250);
  a.set({ callsStarted: 12 });
  sampling.during();
  a.set({ callsInFlight: 3, callsStarted: 20, stalls: 2 });
  b.set({ callsInFlight: 2, resets: 1 });
  await new Promise((r) => setTimeout(r, 250));
  a.set({ callsInFlight: 0 });
  const load = sampling.stop();
  const [e0, e1] = load.executors;
  assert.equal(e0!.executor, "exec-0");
  assert.equal(e0!.baselineMaxInFlight, 2);
  assert.equal(e0!.maxInFlight, 5, "the most at once, sampled while it lasted");
  assert.equal(e0!.stalls, 2);
  assert.equal(e0!.resets, 1);
  assert.ok(e0!.callsPerSecond > 20 && e0!.callsPerSecond < 40, `${e0!.callsPerSecond}`);
  assert.ok(e0!.baselineCallsPerSecond > 4 && e0!.baselineCallsPerSecond < 10);
  assert.deepEqual([e1!.maxInFlight, e1!.callsPerSecond, e1!.stalls], [0, 0, 0]);
});
