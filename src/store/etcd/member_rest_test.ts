import assert from "node:assert/strict";
import {
  MEMBER_REST_MAX_MS,
  MEMBER_REST_MS,
  MemberRest,
  MemberRestingError,
} from "./member_rest.ts";

const timeout = () =>
  Object.assign(new Error("4 DEADLINE_EXCEEDED: Deadline exceeded"), { code: 4 });

function members(count: number) {
  let now = 0;
  const rest = new MemberRest(() => now);
  const policies = Array.from({ length: count }, (_, i) => rest.policy(`m${i}:2379`));
  return { rest, policies, advance: (ms: number) => void (now += ms) };
}

Deno.test("a member that did not answer is passed over while another answers", async () => {
  const { rest, policies: [a, b], advance } = members(2);
  await assert.rejects(a!.execute(() => Promise.reject(timeout())), /DEADLINE/);
  assert.deepEqual(rest.resting(), ["m0:2379"]);
  let called = false;
  await assert.rejects(a!.execute(() => void (called = true)), MemberRestingError);
  assert.equal(called, false);
  assert.equal(await b!.execute(() => "b"), "b");
  advance(MEMBER_REST_MS);
  assert.equal(await a!.execute(() => "a again"), "a again");
  assert.deepEqual(rest.resting(), []);
});

Deno.test("every member resting: calls go through as before", async () => {
  const { rest, policies: [a, b] } = members(2);
  await assert.rejects(a!.execute(() => Promise.reject(timeout())));
  await assert.rejects(b!.execute(() => Promise.reject(timeout())));
  assert.equal(rest.resting().length, 2);
  assert.equal(await a!.execute(() => "tried"), "tried");
  assert.deepEqual(rest.resting(), ["m1:2379"]);
});

Deno.test("a member that keeps failing rests longer, up to the most; an answer resets it", async () => {
  const { policies: [a], advance } = members(2);
  /** Fails one call on `a`, then returns how long `a` is passed over. */
  const failAndMeasure = async () => {
    await assert.rejects(a!.execute(() => Promise.reject(timeout())));
    let rested = 0;
    while (
      await a!.execute(() => Promise.reject(timeout())).then(
        () => false,
        (e) => e instanceof MemberRestingError,
      )
    ) {
      advance(250);
      rested += 250;
    }
    return rested;
  };
  // The loop's last call reached the member (and failed again), so each measure starts resting.
  const rests = [await failAndMeasure()];
  for (let i = 0; i < 5; i++) {
    let rested = 0;
    while (await a!.execute(() => "x").then(() => false, (e) => e instanceof MemberRestingError)) {
      advance(250);
      rested += 250;
    }
    rests.push(rested);
    if (i < 4) await assert.rejects(a!.execute(() => Promise.reject(timeout())));
  }
  assert.equal(rests[0], MEMBER_REST_MS);
  assert.ok(rests.every((r) => r <= MEMBER_REST_MAX_MS), `${rests}`);
  assert.equal(rests[1], 2 * MEMBER_REST_MS, `${rests}`); // failed again at the end of its rest
  assert.equal(rests[2], MEMBER_REST_MS, `${rests}`); // answered in between: from the start
});

Deno.test("the rest stops doubling at its most", async () => {
  const { rest, policies: [a], advance } = members(2);
  for (let i = 0; i < 10; i++) {
    await assert.rejects(a!.execute(() => Promise.reject(timeout())));
    const expected = Math.min(MEMBER_REST_MS * 2 ** i, MEMBER_REST_MAX_MS);
    advance(expected - 1);
    assert.deepEqual(rest.resting(), ["m0:2379"], `failure ${i + 1}`);
    advance(1);
  }
  assert.deepEqual(rest.resting(), []);
});

Deno.test("an answer that refuses the call is no reason to rest", async () => {
  const { rest, policies: [a] } = members(2);
  await assert.rejects(
    a!.execute(() => Promise.reject(new Error("etcdserver: requested lease not found"))),
  );
  assert.deepEqual(rest.resting(), []);
});

Deno.test("a lost connection rests the member too", async () => {
  const { rest, policies: [a] } = members(3);
  await assert.rejects(
    a!.execute(() => Promise.reject(new Error("14 UNAVAILABLE: No connection established"))),
  );
  assert.deepEqual(rest.resting(), ["m0:2379"]);
});
