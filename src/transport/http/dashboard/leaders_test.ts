import assert from "node:assert/strict";
import type { LeaderView } from "../../../routing/views.ts";
import { LeaderCache } from "./leaders.ts";

function fakeClock() {
  let t = 1_000;
  return {
    clock: { now: () => 1_700_000_000_000 + t, monotonic: () => t },
    advance: (ms: number) => t += ms,
  };
}

const LEADERS: LeaderView[] = [
  { namespace: "a", instanceId: "i1", term: 7, sinceMs: 42 },
  { namespace: "b" },
];

Deno.test("leader cache asks the store once per max age and answers per namespace", async () => {
  const { clock, advance } = fakeClock();
  let calls = 0;
  const cache = new LeaderCache(() => {
    calls++;
    return Promise.resolve(LEADERS);
  }, { maxAgeMs: 1_000, clock });
  assert.deepEqual(await cache.get("a"), {
    instanceId: "i1",
    term: 7,
    sinceMs: 42,
    checkedAtMs: 1_700_000_001_000,
  });
  assert.deepEqual(await cache.get("b"), { checkedAtMs: 1_700_000_001_000 });
  assert.equal(calls, 1);
  advance(999);
  await cache.get("a");
  assert.equal(calls, 1);
  advance(1);
  await cache.get("a");
  assert.equal(calls, 2);
});

Deno.test("leader cache serves the last answer with the error when the store fails", async () => {
  const { clock, advance } = fakeClock();
  let fail = false;
  const cache = new LeaderCache(
    () => fail ? Promise.reject(new Error("etcd is down")) : Promise.resolve(LEADERS),
    { maxAgeMs: 10, clock },
  );
  await cache.get("a");
  fail = true;
  advance(50);
  const info = await cache.get("a");
  assert.equal(info.instanceId, "i1");
  assert.equal(info.checkedAtMs, 1_700_000_001_000);
  assert.equal(info.error, "etcd is down");
  fail = false;
  advance(50);
  assert.equal((await cache.get("a")).error, undefined);
});

Deno.test("leader cache does not wait longer than waitMs for a hung store", async () => {
  const hung = Promise.withResolvers<LeaderView[]>();
  let calls = 0;
  const cache = new LeaderCache(() => {
    calls++;
    return hung.promise;
  }, { waitMs: 20 });
  const started = performance.now();
  const [first, second] = await Promise.all([cache.get("a"), cache.get("a")]);
  assert.ok(performance.now() - started < 1_000);
  assert.equal(calls, 1, "one lookup in flight at a time");
  assert.equal(first.instanceId, undefined);
  assert.match(first.error ?? "", /has not answered yet/);
  assert.deepEqual(first, second);
  hung.resolve(LEADERS);
  await new Promise((r) => setTimeout(r, 0));
  assert.equal((await cache.get("a")).instanceId, "i1");
});

Deno.test("leader cache rejects negative timings", () => {
  assert.throws(() => new LeaderCache(() => Promise.resolve([]), { waitMs: -1 }), RangeError);
  assert.throws(
    () => new LeaderCache(() => Promise.resolve([]), { maxAgeMs: Number.NaN }),
    /maxAgeMs must be >= 0, got NaN/,
  );
});
