import assert from "node:assert/strict";
import { PoisonDetector, type PoisonExecutor, type QuarantineSettings } from "./poison_detector.ts";

const SETTINGS: QuarantineSettings = {
  threshold: 3,
  windowMs: 600_000,
  recentMs: 6_000,
  massShare: 0.1,
};

interface Fleet {
  [id: string]: {
    alive?: boolean;
    lastHeartbeatMs?: number;
    failing?: string[];
    owned?: [string, number, boolean?][];
    incarnation?: string;
  };
}

function observe(detector: PoisonDetector, nowMs: number, fleet: Fleet, shardCount = 100) {
  const executors: PoisonExecutor[] = Object.entries(fleet).map(([id, e]) => ({
    executorId: id,
    alive: e.alive ?? true,
    lastHeartbeatMs: e.lastHeartbeatMs ?? nowMs,
    failedStarts: e.failing ?? [],
    owned: () => (e.owned ?? []).map(([k, at, running]) => [k, at, running ?? false] as const),
    ...(e.incarnation === undefined ? {} : { incarnation: e.incarnation }),
    running: (shard: string) => (e.owned ?? []).some(([k, , running]) => k === shard && running),
  }));
  return detector.observe({ nowMs, shardCount, executors, excluded: () => false });
}

/** Ten live executors, `e0`..`e9`, with `changes` applied. */
function fleetOf(changes: Fleet = {}): Fleet {
  const fleet: Fleet = {};
  for (let i = 0; i < 10; i++) fleet[`e${i}`] = {};
  return { ...fleet, ...changes };
}

Deno.test("a shard is quarantined once three executors failed to start it", () => {
  const detector = new PoisonDetector(SETTINGS);
  assert.deepEqual(observe(detector, 1_000, fleetOf({ e1: { failing: ["7"] } })).quarantine, []);
  assert.deepEqual(observe(detector, 2_000, fleetOf({ e1: { failing: ["7"] } })).quarantine, []);
  assert.deepEqual(observe(detector, 3_000, fleetOf({ e2: { failing: ["7"] } })).quarantine, []);
  const verdict = observe(detector, 4_000, fleetOf({ e3: { failing: ["7"] } }));
  assert.deepEqual(verdict.quarantine, [{ shardKey: "7", executors: ["e1", "e2", "e3"] }]);
  assert.equal(verdict.massLoss, undefined);
  // Quarantined (and later undrained): its counts start afresh.
  detector.forget(["7"]);
  assert.deepEqual(observe(detector, 5_000, fleetOf({ e4: { failing: ["7"] } })).quarantine, []);
});

Deno.test("failures older than the window are forgotten", () => {
  const detector = new PoisonDetector({ ...SETTINGS, windowMs: 10_000 });
  observe(detector, 0, fleetOf({ e1: { failing: ["7"] } }));
  observe(detector, 1_000, fleetOf({ e2: { failing: ["7"] } }));
  const verdict = observe(detector, 12_000, fleetOf({ e3: { failing: ["7"] } }));
  assert.deepEqual(verdict.quarantine, [], "e1 and e2 failed more than 10 s ago");
  assert.equal(detector.suspects, 1);
});

Deno.test("executors lost soon after receiving a shard count against it; long-held shards do not", () => {
  const detector = new PoisonDetector(SETTINGS);
  observe(detector, 0, fleetOf());
  let now = 10_000;
  for (const id of ["e1", "e2", "e3"]) {
    // Given "7" 2 s before its last heartbeat, "1" an hour before.
    const verdict = observe(
      detector,
      now,
      fleetOf({
        [id]: {
          alive: false,
          lastHeartbeatMs: now - 3_000,
          owned: [["7", now - 5_000], ["1", now - 3_600_000]],
        },
      }),
    );
    if (id !== "e3") assert.deepEqual(verdict.quarantine, []);
    else assert.deepEqual(verdict.quarantine, [{ shardKey: "7", executors: ["e1", "e2", "e3"] }]);
    now += 10_000;
  }
});

Deno.test("a shard the lost executor reported running is not blamed for its death", () => {
  const detector = new PoisonDetector({ ...SETTINGS, threshold: 1 });
  observe(detector, 0, fleetOf());
  const verdict = observe(
    detector,
    10_000,
    fleetOf({
      e1: { alive: false, lastHeartbeatMs: 9_000, owned: [["7", 8_000], ["8", 8_000, true]] },
    }),
  );
  assert.deepEqual(verdict.quarantine, [{ shardKey: "7", executors: ["e1"] }]);
});

Deno.test("a shard given to an executor after its last heartbeat was never received", () => {
  const detector = new PoisonDetector({ ...SETTINGS, threshold: 1 });
  observe(detector, 0, fleetOf());
  const verdict = observe(
    detector,
    10_000,
    fleetOf({
      e1: { alive: false, lastHeartbeatMs: 5_000, owned: [["7", 6_000]] },
    }),
  );
  assert.deepEqual(verdict.quarantine, []);
});

Deno.test("a mass loss of executors blames no shard, and says so", () => {
  const detector = new PoisonDetector({ ...SETTINGS, threshold: 1 });
  observe(detector, 0, fleetOf());
  const lost = {
    alive: false,
    lastHeartbeatMs: 9_000,
    owned: [["7", 8_000]] as [string, number][],
  };
  const verdict = observe(detector, 10_000, fleetOf({ e1: lost, e2: lost }));
  assert.deepEqual(verdict.quarantine, []);
  assert.match(verdict.massLoss!, /^2 of 10 executors lost at once \(more than 10%\)/);
  assert.equal(detector.suspects, 0, "nothing was counted");
});

Deno.test("executors lost within the mass window count as one loss, even seen by two passes", () => {
  const detector = new PoisonDetector({ ...SETTINGS, threshold: 1, massWindowMs: 1_000 });
  observe(detector, 0, fleetOf());
  const lost = (at: number) => ({
    alive: false,
    lastHeartbeatMs: at,
    owned: [["7", at - 500]] as [string, number][],
  });
  const first = observe(detector, 10_000, fleetOf({ e1: lost(9_000) }));
  assert.equal(first.massLoss, undefined, "one loss alone is counted");
  assert.deepEqual(first.quarantine, [{ shardKey: "7", executors: ["e1"] }]);
  observe(detector, 10_100, fleetOf({ e1: lost(9_000) }));
  const second = observe(
    detector,
    10_400,
    fleetOf({ e1: lost(9_000), e2: lost(9_100), e3: lost(9_100) }),
  );
  assert.match(second.massLoss!, /^3 of 10 executors lost at once/);
  const later = observe(
    detector,
    20_000,
    fleetOf({
      e1: lost(9_000),
      e2: lost(9_100),
      e3: lost(9_100),
      e4: lost(19_000),
    }),
  );
  assert.equal(later.massLoss, undefined, "a loss 10 s later is a new event");
});

Deno.test("one executor lost in a small fleet is not a mass loss", () => {
  const detector = new PoisonDetector({ ...SETTINGS, threshold: 1 });
  const three: Fleet = { a: {}, b: {}, c: {} };
  observe(detector, 0, three);
  const verdict = observe(detector, 10_000, {
    ...three,
    a: { alive: false, lastHeartbeatMs: 9_000, owned: [["7", 8_000]] },
  });
  assert.deepEqual(verdict.quarantine, [{ shardKey: "7", executors: ["a"] }]);
});

Deno.test("starts failing on many shards at once is a fleet-wide failure, not a poison shard", () => {
  const detector = new PoisonDetector({ ...SETTINGS, threshold: 1 });
  const failing = Array.from({ length: 20 }, (_, i) => String(i));
  const verdict = observe(detector, 1_000, fleetOf({ e1: { failing }, e2: { failing } }));
  assert.deepEqual(verdict.quarantine, []);
  assert.match(verdict.massLoss!, /^20 of 100 shards fail to start at once/);
  assert.equal(detector.suspects, 0);
});

Deno.test("many shards reaching the threshold at once are not quarantined", () => {
  const detector = new PoisonDetector({ ...SETTINGS, threshold: 2 });
  const some = Array.from({ length: 8 }, (_, i) => String(i));
  observe(detector, 1_000, fleetOf({ e1: { failing: some.slice(0, 4) } }), 50);
  observe(detector, 2_000, fleetOf({ e1: { failing: some.slice(4) } }), 50);
  // e2 dies right after receiving all eight: each reaches two executors at once.
  const owned = some.map((k): [string, number] => [k, 2_500]);
  const verdict = observe(
    detector,
    6_000,
    fleetOf({
      e2: { alive: false, lastHeartbeatMs: 3_000, owned },
    }),
    50,
  );
  assert.deepEqual(verdict.quarantine, []);
  assert.match(verdict.massLoss!, /^8 of 50 shards reached the quarantine threshold at once/);
});

Deno.test("threshold 0 turns quarantine off; bad settings are refused", () => {
  const off = new PoisonDetector({ ...SETTINGS, threshold: 0 });
  for (let t = 0; t < 5; t++) {
    assert.deepEqual(observe(off, t, fleetOf({ [`e${t}`]: { failing: ["7"] } })).quarantine, []);
  }
  assert.throws(() => new PoisonDetector({ ...SETTINGS, threshold: 1.5 }), RangeError);
  assert.throws(() => new PoisonDetector({ ...SETTINGS, windowMs: 0 }), RangeError);
  assert.throws(() => new PoisonDetector({ ...SETTINGS, massShare: 2 }), RangeError);
});

Deno.test("executors restarting under the same id soon after receiving a shard count against it", () => {
  const detector = new PoisonDetector(SETTINGS);
  // e1..e3 each receive shard 7 (and e1 also shard 8, which it runs), then restart (a new
  // incarnation) within recentMs, one after the other; the shard moves between them.
  const order = ["e1", "e2", "e3"];
  const lives = (life: number, owner: string, at: number): Fleet => {
    const turn = order.indexOf(owner);
    const fleet: Fleet = {};
    for (const [i, id] of order.entries()) {
      // Those before the owner restarted once already; those after have not yet.
      const incarnation = `${id}-${i < turn ? 2 : i > turn ? 1 : life}`;
      fleet[id] = { incarnation, owned: id === owner ? [["7", at]] : [] };
    }
    fleet.e1!.owned = [...fleet.e1!.owned!, ["8", 0, true]];
    return fleetOf(fleet);
  };
  assert.deepEqual(observe(detector, 1_000, lives(1, "e1", 500)).quarantine, []);
  assert.deepEqual(observe(detector, 2_000, lives(2, "e1", 500)).quarantine, []);
  assert.deepEqual([...detector.restartedOwners()], [["7", "e1"]], "moved off e1, not shard 8");
  assert.deepEqual([...detector.failedWith().keys()], ["7"]);
  observe(detector, 3_000, lives(1, "e2", 2_500));
  observe(detector, 4_000, lives(2, "e2", 2_500));
  observe(detector, 5_000, lives(1, "e3", 4_500));
  const verdict = observe(detector, 6_000, lives(2, "e3", 4_500));
  assert.deepEqual(verdict.quarantine, [{ shardKey: "7", executors: ["e1", "e2", "e3"] }]);
});

Deno.test("a restart long after receiving a shard, or of an executor that sends no incarnation, blames nothing", () => {
  const detector = new PoisonDetector(SETTINGS);
  observe(detector, 1_000, fleetOf({ e1: { incarnation: "a", owned: [["7", 0]] } }));
  // Restarted 20 s after it received shard 7 (recentMs is 6 s): not the shard's doing.
  observe(detector, 20_000, fleetOf({ e1: { incarnation: "b", owned: [["7", 0]] } }));
  assert.equal(detector.suspects, 0);
  observe(detector, 21_000, fleetOf({ e2: { owned: [["7", 20_500]] } }));
  observe(detector, 22_000, fleetOf({ e2: { owned: [["7", 20_500]] } }));
  assert.equal(detector.suspects, 0);
});

Deno.test("many executors restarting at once is fleet-wide, not a poison shard", () => {
  const detector = new PoisonDetector(SETTINGS);
  const fleet = (life: string) => {
    const f: Fleet = {};
    for (let i = 0; i < 10; i++) {
      f[`e${i}`] = { incarnation: `${life}${i}`, owned: [[`${i}`, 500]] };
    }
    return f;
  };
  observe(detector, 1_000, fleet("a"));
  const verdict = observe(detector, 2_000, fleet("b"));
  assert.match(verdict.massLoss ?? "", /10 of 10 executors lost at once/);
  assert.equal(detector.suspects, 0);
});
