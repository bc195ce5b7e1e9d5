import assert from "node:assert/strict";
import FakeTimers from "@sinonjs/fake-timers";
import { fakeClock } from "../../core/fake_clock.ts";
import { silentLogger } from "../../core/logger.ts";
import type { LeaderInfo, Leadership, LeaderStore } from "../../store/leader_store.ts";
import { type ElectionLoopOptions, runElectionLoop } from "./election_loop.ts";

/** An in-memory leader store that records campaigns and resignations with their times. */
class FakeLeaderStore implements LeaderStore {
  readonly campaigns: number[] = [];
  readonly resigns: { term: number; at: number }[] = [];
  failures = 0;
  #term = 0;
  #lost: AbortController | undefined;
  constructor(readonly now: () => number) {}

  campaign(
    namespace: string,
    _instanceId: string,
    options: { readonly ttlMs: number; readonly signal: AbortSignal },
  ): Promise<Leadership> {
    assert.equal(options.ttlMs, 3_000);
    this.campaigns.push(this.now());
    if (this.failures > 0) {
      this.failures--;
      return Promise.reject(new Error("etcd unreachable"));
    }
    const term = ++this.#term;
    const lost = this.#lost = new AbortController();
    let resigned = false;
    return Promise.resolve({
      namespace,
      term,
      signal: lost.signal,
      resign: () => {
        if (!resigned) this.resigns.push({ term, at: this.now() });
        resigned = true;
        lost.abort();
        return Promise.resolve();
      },
    });
  }
  /** Loses the current leadership, as when the lease expires. */
  lose(): void {
    this.#lost?.abort(new Error("lease expired"));
  }
  leader(): Promise<LeaderInfo | undefined> {
    return Promise.resolve(undefined);
  }
  close(): Promise<void> {
    return Promise.resolve();
  }
}

function setup(over: Partial<ElectionLoopOptions> = {}) {
  const clock = FakeTimers.install({ toFake: ["setTimeout", "clearTimeout"] });
  const store = new FakeLeaderStore(() => clock.now);
  const leads: { term: number; start: number; end?: number; reason?: unknown }[] = [];
  const controller = new AbortController();
  const loop = runElectionLoop({
    namespace: "ns",
    instanceId: "i1",
    leaderStore: store,
    electionTtlMs: 3_000,
    leaderPeriodMs: 1_000,
    maxRandomDelayMs: 200,
    failedElectionCooldownMs: 500,
    logger: silentLogger,
    random: () => 0.5,
    lead: async (leadership, signal) => {
      const lead: (typeof leads)[number] = { term: leadership.term, start: clock.now };
      leads.push(lead);
      await new Promise((resolve) => signal.addEventListener("abort", resolve, { once: true }));
      lead.end = clock.now;
      lead.reason = signal.reason;
    },
    ...over,
  }, controller.signal);
  const stop = async () => {
    controller.abort();
    await clock.tickAsync(0);
    await loop;
    clock.uninstall();
  };
  return { clock, store, leads, controller, loop, stop };
}

Deno.test("election loop campaigns after a random delay of at most maxRandomDelay", async () => {
  for (const [random, expected] of [[0, 0], [0.5, 100], [0.75, 150]] as const) {
    const { clock, store, stop } = setup({ random: () => random });
    if (expected > 0) {
      await clock.tickAsync(expected - 1);
      assert.deepEqual(store.campaigns, [], `random ${random}: campaigned too early`);
    }
    await clock.tickAsync(expected > 0 ? 1 : 0);
    assert.deepEqual(store.campaigns, [expected], `random ${random}`);
    await stop();
  }
  const { clock, store, stop } = setup({ random: () => 0.99999 });
  await clock.tickAsync(200);
  assert.equal(store.campaigns.length, 1);
  assert.ok(store.campaigns[0]! <= 200);
  await stop();
});

Deno.test("election loop resigns after the leader period and campaigns again", async () => {
  const { clock, store, leads, stop } = setup();
  await clock.tickAsync(100);
  assert.deepEqual(leads.map((l) => [l.term, l.start]), [[1, 100]]);
  await clock.tickAsync(999);
  assert.deepEqual(store.resigns, [], "still within the period");
  await clock.tickAsync(1);
  assert.equal(leads[0]?.end, 1_100);
  assert.match(String((leads[0]?.reason as Error).message), /leader period over/);
  assert.deepEqual(store.resigns, [{ term: 1, at: 1_100 }]);
  await clock.tickAsync(100);
  assert.deepEqual(store.campaigns, [100, 1_200], "a new random delay, then a new campaign");
  assert.equal(leads[1]?.term, 2);
  await stop();
});

Deno.test("election loop waits the failed-election cooldown after a failed campaign", async () => {
  const { clock, store, leads, stop } = setup();
  store.failures = 1;
  await clock.tickAsync(100);
  assert.deepEqual(store.campaigns, [100]);
  await clock.tickAsync(500 + 100 - 1);
  assert.equal(store.campaigns.length, 1, "no campaign during the cooldown and the next delay");
  await clock.tickAsync(1);
  assert.deepEqual(store.campaigns, [100, 700]);
  assert.equal(leads.length, 1);
  await stop();
});

Deno.test("election loop resigns at once when the outer signal aborts", async () => {
  const { clock, store, leads, loop, controller } = setup();
  try {
    await clock.tickAsync(400);
    controller.abort();
    await clock.tickAsync(0);
    await loop;
    assert.equal(leads[0]?.end, 400);
    assert.deepEqual(store.resigns, [{ term: 1, at: 400 }]);
    assert.equal(clock.countTimers(), 0, "the leader-period timer was cleared");
    await clock.tickAsync(10_000);
    assert.equal(store.campaigns.length, 1, "no campaign after shutdown");
  } finally {
    clock.uninstall();
  }
});

Deno.test("election loop stops without campaigning when aborted during the random delay", async () => {
  const { clock, store, loop, controller } = setup();
  try {
    await clock.tickAsync(50);
    controller.abort();
    await clock.tickAsync(0);
    await loop;
    assert.deepEqual(store.campaigns, []);
    assert.equal(clock.countTimers(), 0, "no timer left behind");
  } finally {
    clock.uninstall();
  }
});

Deno.test("election loop aborts the lead signal when leadership is lost", async () => {
  const { clock, store, leads, stop } = setup();
  await clock.tickAsync(300);
  store.lose();
  await clock.tickAsync(0);
  assert.equal(leads[0]?.end, 300);
  assert.match(String((leads[0]?.reason as Error).message), /lease expired/);
  assert.deepEqual(store.resigns, [{ term: 1, at: 300 }], "resign is still called");
  await clock.tickAsync(100);
  assert.deepEqual(store.campaigns, [100, 400]);
  await stop();
});

Deno.test("election loop runs its delays and the leader period on the clock it is given", async () => {
  const time = fakeClock();
  const store = new FakeLeaderStore(() => time.clock.now());
  const reasons: unknown[] = [];
  const controller = new AbortController();
  const loop = runElectionLoop({
    namespace: "ns",
    instanceId: "i1",
    leaderStore: store,
    electionTtlMs: 3_000,
    leaderPeriodMs: 1_000,
    maxRandomDelayMs: 200,
    failedElectionCooldownMs: 500,
    logger: silentLogger,
    random: () => 0.5,
    clock: time.clock,
    lead: async (_leadership, signal) => {
      await new Promise((resolve) => signal.addEventListener("abort", resolve, { once: true }));
      reasons.push(signal.reason);
    },
  }, controller.signal);
  store.failures = 1;
  await time.tick(100);
  assert.deepEqual(store.campaigns, [100], "the random delay ran on the fake clock");
  await time.tick(500 + 100);
  assert.deepEqual(store.campaigns, [100, 700], "so did the cooldown after a failure");
  await time.tick(1_000);
  assert.deepEqual(store.resigns, [{ term: 1, at: 1_700 }], "and the leader period");
  assert.match(String((reasons[0] as Error).message), /leader period over/);
  controller.abort();
  await time.settle();
  await loop;
  assert.equal(time.pending(), 0, "no timer left behind");
});
