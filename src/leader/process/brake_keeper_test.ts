import assert from "node:assert/strict";
import { FencedError, StoreUnavailableError } from "../../core/errors.ts";
import type { BrakeRecord } from "../../store/brake_store.ts";
import type { Fence } from "../../store/store.ts";
import { BrakeKeeper } from "./brake_keeper.ts";
import { MassLossBrake } from "./mass_loss_brake.ts";

const FENCE: Fence = {
  namespace: "ns",
  revision: 7,
  claim: { term: 2, instanceId: "sm-1", sinceMs: 0 },
};

function fleet(alive: number) {
  return ["a", "b", "c", "d"].map((id, i) => ({
    executorId: id,
    alive: i < alive,
    status: "ACTIVE" as const,
    operatorDrained: false,
  }));
}

Deno.test("brake keeper writes a record again when its write failed", async () => {
  const written: BrakeRecord[] = [];
  let down = true;
  const store = {
    readBrake: () => Promise.resolve(undefined),
    writeBrake: (_fence: Fence, record: BrakeRecord) => {
      if (down) return Promise.reject(new StoreUnavailableError("etcd is down"));
      written.push(record);
      return Promise.resolve();
    },
  };
  const clock = { now: () => 1_000_000, monotonic: () => 5_000 };
  const keeper = new BrakeKeeper(
    new MassLossBrake({ share: 0.3, windowMs: 4_000, minLost: 2 }),
    store,
    clock,
  );
  await keeper.resume(FENCE);
  keeper.observe(fleet(4), 5_000);
  assert.equal(keeper.observe(fleet(2), 5_000)?.type, "brake_engaged");
  await assert.rejects(keeper.saved(), StoreUnavailableError);
  down = false;
  await keeper.saved(); // the next pass
  assert.deepEqual(written.map((r) => r.state), ["engaged"]);
  await keeper.saved();
  assert.equal(written.length, 1, "written once");
});

Deno.test("brake keeper: a deposed leader's record is refused, and a term not resumed lifts nothing", async () => {
  const store = {
    readBrake: () => Promise.resolve(undefined),
    writeBrake: () => Promise.reject(new FencedError("ns", "the brake record was refused")),
  };
  const clock = { now: () => 1_000_000, monotonic: () => 5_000 };
  const brake = new MassLossBrake({ share: 0.3, windowMs: 4_000, minLost: 2 });
  const keeper = new BrakeKeeper(brake, store, clock);
  assert.equal(await keeper.lift("ops"), undefined, "not resumed yet");
  await keeper.resume(FENCE);
  keeper.observe(fleet(4), 5_000);
  keeper.observe(fleet(2), 5_000);
  await assert.rejects(keeper.saved(), FencedError);
  await assert.rejects(keeper.lift("ops"), FencedError);
});
