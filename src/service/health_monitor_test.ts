import assert from "node:assert/strict";
import type { Store } from "../store/store.ts";
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
