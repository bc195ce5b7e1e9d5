import assert from "node:assert/strict";
import type { Store } from "../store/store.ts";
import { StoreEvidence } from "../core/store_evidence.ts";
import { HealthMonitor } from "./health_monitor.ts";

function storeWith(ping: () => Promise<void>): Store {
  return { ping } as unknown as Store;
}

Deno.test("health is ready only when the store answers and caches are synced", async () => {
  let up = true;
  let synced = false;
  const changes: boolean[] = [];
  const monitor = new HealthMonitor(
    storeWith(() => up ? Promise.resolve() : Promise.reject(new Error("etcd down"))),
    () => synced,
  );
  monitor.onChange((s) => changes.push(s.ready));
  assert.equal((await monitor.probe()).ready, false, "not synced yet");
  synced = true;
  assert.equal((await monitor.probe()).ready, true);
  up = false;
  const down = await monitor.probe();
  assert.deepEqual([down.ready, down.storeReachable, down.error], [false, false, "etcd down"]);
  assert.deepEqual(changes, [false, true, false], "listeners hear each change once");
});

Deno.test("a ping that hangs counts as unreachable after the timeout", async () => {
  const monitor = new HealthMonitor(storeWith(() => new Promise(() => {})), () => true, {
    timeoutMs: 20,
  });
  const status = await monitor.probe();
  assert.deepEqual([status.ready, status.error], [false, "the store did not answer in time"]);
});

Deno.test("a silent pulse makes the store unreachable before the next probe, and every reader agrees", async () => {
  let t = 10_000;
  const clock = { now: () => 1e12 + t, monotonic: () => t };
  const evidence = new StoreEvidence({ silenceMs: 1_000, clock });
  const monitor = new HealthMonitor(storeWith(() => Promise.resolve()), () => true, {
    clock,
    evidence,
  });
  const changes: boolean[] = [];
  monitor.onChange((s) => changes.push(s.ready));
  evidence.heard();
  assert.equal((await monitor.probe()).ready, true);
  t += 800;
  evidence.heard(); // the pulse's last answer, later than the probe's
  t += 1_001;
  const silent = monitor.status;
  assert.deepEqual([silent.ready, silent.storeReachable], [false, false]);
  assert.equal(silent.error, "the store has not answered for 1.0 s");
  assert.equal(silent.lastGoodReadMonotonic, 10_800, "the last good read is the pulse's");
  assert.deepEqual(changes, [true, false], "the first reader of the change told the listeners");
  evidence.heard();
  assert.equal(monitor.status.ready, true);
  assert.deepEqual(changes, [true, false, true]);
});
