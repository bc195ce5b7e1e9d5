/**
 * The part of the `Store` contract about two leader writes of issue 41's
 * brakes: the quarantine of a poison shard (`drainFenced`) and the mass-loss
 * brake's record (`writeBrake`/`readBrake`). Both are written only while the
 * writer's fence holds the namespace: a deposed leader's write is refused with
 * `FencedError` and changes nothing. Registered by both adapters' tests beside
 * `storeContract`.
 *
 * @module
 */
import assert from "node:assert/strict";
import { FencedError } from "../../src/core/errors.ts";
import type { BrakeRecord } from "../../src/store/brake_store.ts";
import { claim, type OpenStore } from "./store_contract.ts";
import { uniquePrefix } from "./etcd.ts";

const ENGAGED: BrakeRecord = {
  state: "engaged",
  sinceMs: 1_000,
  reason: "Mass-loss brake engaged: 6 of 10 serving executors lost",
  executorsBefore: 10,
  lost: ["e0", "e1", "e2", "e3", "e4", "e5"],
  term: 1,
};

/** Registers the fenced leader-write contract tests for the adapter `name`. */
export function leaderWritesContract(name: string, open: OpenStore): void {
  Deno.test(`${name} store: a quarantine drain is written only while the leader's fence holds`, async () => {
    const { store, cleanup } = await open(uniquePrefix("fenced drain"));
    try {
      const old = await store.claimLeadership("ns", claim(1));
      await store.drainFenced(old, ["1", "2"], "quarantined");
      let snap = await store.loadNamespace("ns");
      assert.deepEqual([...snap.drainReasons ?? []].sort(), [
        ["1", "quarantined"],
        ["2", "quarantined"],
      ]);
      // A newer term holds the namespace: the deposed leader's quarantine is refused.
      await store.claimLeadership("ns", claim(2, "i-2"));
      await assert.rejects(store.drainFenced(old, ["3"], "quarantined"), FencedError);
      snap = await store.loadNamespace("ns");
      assert.deepEqual([...snap.drained].sort(), ["1", "2"]);
    } finally {
      await cleanup();
    }
  });

  Deno.test(`${name} store: the brake record is kept for the next leader and written only under a fence`, async () => {
    const { store, cleanup } = await open(uniquePrefix("brake record"));
    try {
      assert.equal(await store.readBrake("ns"), undefined);
      const first = await store.claimLeadership("ns", claim(1));
      await store.writeBrake(first, ENGAGED);
      assert.deepEqual(await store.readBrake("ns"), ENGAGED);
      assert.equal(await store.readBrake("other"), undefined);
      const second = await store.claimLeadership("ns", claim(2, "i-2"));
      const lifted: BrakeRecord = {
        ...ENGAGED,
        state: "lifted",
        endedAtMs: 2_000,
        liftedBy: "ops",
        term: 2,
      };
      await store.writeBrake(second, lifted);
      // The deposed leader's record is refused and changes nothing.
      await assert.rejects(store.writeBrake(first, { ...ENGAGED, sinceMs: 3_000 }), FencedError);
      assert.deepEqual(await store.readBrake("ns"), lifted);
      // A force reset forgets it with the rest of the namespace.
      await store.resetNamespace("ns");
      assert.equal(await store.readBrake("ns"), undefined);
    } finally {
      await cleanup();
    }
  });
}
