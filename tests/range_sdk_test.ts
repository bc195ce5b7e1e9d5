/**
 * Key ranges end to end with both SDKs against a real etcd and service: SDK
 * executors serve requests for keys, refuse keys their slices do not
 * contain, and report each key's load; a spectator routes every request by
 * key from memory. When one key takes most of the load, the service gives it
 * a slice of its own with several owners, and no request is lost meanwhile:
 * each one routed by the spectator lands on an executor whose slice contains
 * the key, or, while a change is on its way (a slice's new owner starts it on
 * its next heartbeat, up to one interval after spectators see the move), is
 * refused there and routed again after a short wait.
 */
import assert from "node:assert/strict";
import { createSpectator } from "../src/client/spectator/mod.ts";
import { keyHash } from "../src/shared/key_hash.ts";
import { startEtcd } from "./support/etcd.ts";
import { eventually } from "./support/executors.ts";
import {
  RANGE_NAMESPACE as NS,
  type RunningSlices,
  startRangeInstance,
  startSliceExecutor,
} from "./support/range_namespace.ts";

const HOT = "tenant-hot";

Deno.test("range namespace with the SDKs: routed by key, served where contained, a hot key isolated", async () => {
  await using etcd = await startEtcd();
  const instance = await startRangeInstance(etcd, "range sdk", { range: { churnBudget: 2 } });
  const address = instance.server.address;
  // Each executor's running slices: shard key → context.
  const running: RunningSlices = new Map();
  const executors = ["a", "b", "c"].map((id) => startSliceExecutor(address, id, running));
  /** Serves `key` on `executorId`: true when one of its slices contains it (and counts its load). */
  const serve = (executorId: string, key: string): boolean => {
    for (const ctx of running.get(executorId)!.values()) {
      if (ctx.contains(key)) {
        ctx.reportKeyLoad(key);
        return true;
      }
    }
    return false;
  };
  await using spectator = createSpectator({ addresses: [address], namespace: NS });
  try {
    await spectator.waitReady({ timeoutMs: 10_000 });
    const keys = Array.from({ length: 100 }, (_, i) => `tenant-${i}`);
    await eventually(
      () =>
        keys.every((k) => spectator.ownerOf(k) !== undefined) &&
        [...running.values()].every((s) => s.size > 0),
      10_000,
      "slices placed and routed",
    );
    let served = 0, refused = 0, lost = 0;
    const request = async (key: string) => {
      // Route by the spectator; a refusal is routed again after 50 ms, for up to 2 s.
      for (let attempt = 0; attempt < 40; attempt++) {
        const owner = spectator.ownerOf(key);
        if (owner && serve(owner.executorId, key)) return void served++;
        refused++;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      lost++;
    };
    // Load: the hot key takes about 80% of the requests.
    const point = keyHash(HOT);
    const isolated = () => {
      for (const slices of running.values()) {
        for (const ctx of slices.values()) {
          const s = ctx.slice;
          if (s && s.start === point && s.end === point + 1n) return true;
        }
      }
      return false;
    };
    const deadline = Date.now() + 20_000;
    while (!isolated() && Date.now() < deadline) {
      const batch = [...Array.from({ length: 40 }, () => HOT), ...keys.slice(0, 10)];
      await Promise.all([...batch.map(request), new Promise((r) => setTimeout(r, 20))]);
    }
    assert.ok(isolated(), "the hot key has a slice of its own");
    // Its slice has several owners (an available namespace replicates a hot key).
    await eventually(() => spectator.ownersOf(HOT).length > 1, 10_000, "hot key replicas");
    await Promise.all(keys.map(request));
    assert.equal(lost, 0, `requests lost: ${lost} (served ${served}, refused ${refused} times)`);
    assert.ok(served > 0);
  } finally {
    await Promise.all(executors.map((e) => e.shutdown()));
    await instance.stop();
  }
});
