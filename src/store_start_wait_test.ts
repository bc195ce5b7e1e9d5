import assert from "node:assert/strict";
import { StoreUnavailableError } from "./core/errors.ts";
import { StoreFormatError } from "./store/store_format.ts";
import { jsonLogger } from "./core/logger.ts";
import {
  STORE_START_RETRY_MAX_MS,
  STORE_START_RETRY_MS,
  storeStartWaitFromEnv,
  whenStoreAnswers,
} from "./store_start_wait.ts";

/** A clock whose timers fire at once, moving its time on by their delay. */
function fakeClock() {
  const clock = {
    time: 0,
    now: () => clock.time,
    monotonic: () => clock.time,
    setTimeout: (fire: () => void, ms: number) => queueMicrotask(() => (clock.time += ms, fire())),
    clearTimeout: () => {},
  };
  return clock;
}

function recordingLogger() {
  const lines: { msg: string; fields?: Record<string, unknown> }[] = [];
  const logger = jsonLogger("debug", {}, (line) => {
    const { msg, ...fields } = JSON.parse(line);
    lines.push({ msg, fields });
  });
  return { logger, lines };
}

/** A store that is unavailable for its first `failures` opens (all of them by default), then at format 2. */
function storeDownFor(failures = Infinity) {
  const store = {
    tries: 0,
    open: () =>
      ++store.tries <= failures
        ? Promise.reject(new StoreUnavailableError("etcd transaction failed: no leader"))
        : Promise.resolve(2),
  };
  return store;
}

Deno.test("an unavailable store is tried again, with a log line each time, until it answers", async () => {
  const clock = fakeClock();
  const { logger, lines } = recordingLogger();
  const store = storeDownFor(4);
  const format = await whenStoreAnswers(store.open, logger, { clock });
  assert.equal(format, 2);
  assert.equal(store.tries, 5);
  assert.equal(lines.length, 4);
  assert.match(lines[0]!.msg, /does not answer yet/);
  assert.deepEqual(lines.map((l) => l.fields?.nextInMs), [
    STORE_START_RETRY_MS,
    2 * STORE_START_RETRY_MS,
    4 * STORE_START_RETRY_MS,
    Math.min(8 * STORE_START_RETRY_MS, STORE_START_RETRY_MAX_MS),
  ]);
});

Deno.test("the wait gives up with the store's own error once its time has passed", async () => {
  const clock = fakeClock();
  const { logger } = recordingLogger();
  const store = storeDownFor();
  await assert.rejects(
    whenStoreAnswers(store.open, logger, { clock, waitMs: 10_000 }),
    /no leader/,
  );
  assert.ok(clock.time <= 10_000, `${clock.time}`);
  assert.ok(store.tries >= 4, `${store.tries}`);
});

Deno.test("any other failure stops the start at once; 0 does not wait", async () => {
  const { logger, lines } = recordingLogger();
  await assert.rejects(
    whenStoreAnswers(() => Promise.reject(new StoreFormatError(9, "sm/format")), logger, {
      clock: fakeClock(),
    }),
    StoreFormatError,
  );
  const store = storeDownFor();
  await assert.rejects(
    whenStoreAnswers(store.open, logger, { clock: fakeClock(), waitMs: 0 }),
  );
  assert.equal(store.tries, 1);
  assert.equal(lines.length, 0);
});

Deno.test("SM_STORE_START_WAIT reads durations, 0, and refuses anything else", () => {
  assert.equal(storeStartWaitFromEnv(undefined), 60_000);
  assert.equal(storeStartWaitFromEnv(" "), 60_000);
  assert.equal(storeStartWaitFromEnv("0s"), 0);
  assert.equal(storeStartWaitFromEnv("90s"), 90_000);
  assert.throws(() => storeStartWaitFromEnv("-1s"), /SM_STORE_START_WAIT "-1s"/);
  assert.throws(() => storeStartWaitFromEnv("60"), /give a duration/);
});
