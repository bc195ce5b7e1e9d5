import assert from "node:assert/strict";
import { recordingLogger, recordingMeter } from "../common/_recording_telemetry.ts";
import { createSpectator } from "./create_spectator.ts";
import type { SpectatorOptions } from "./options.ts";
import type { SpectatorEvent } from "./types.ts";
import { fakeClock, FakeTransport, snapshot } from "./_fake_transport.ts";

/** A spectator of "ns" on addresses x, y over a fake transport and fake time, its events collected. */
function setup(overrides: Partial<SpectatorOptions> = {}) {
  const { clock, fake } = fakeClock();
  const transport = new FakeTransport();
  const spectator = createSpectator({
    addresses: ["x", "y"],
    namespace: "ns",
    transport,
    clock,
    random: () => 0,
    backoff: { baseMs: 100, maxMs: 100 },
    ...overrides,
  });
  const events: SpectatorEvent[] = [];
  const collected = (async () => {
    for await (const event of spectator.events()) events.push(event);
  })();
  const stream = (index: number) => transport.stream(index, () => fake.tickAsync(10));
  return { spectator, fake, stream, events, collected };
}

const reset = () => Object.assign(new Error("14 UNAVAILABLE: connection reset"), { code: 14 });

Deno.test("connection events: connected, then disconnected and reconnecting with cause and attempt, then connected", async () => {
  const { spectator, stream, fake, events, collected } = setup({ logger: false });
  (await stream(0)).push(snapshot({ a: ["0"] }));
  await spectator.ready;
  (await stream(0)).fail(reset());
  (await stream(1)).fail(reset());
  (await stream(2)).push(snapshot({ a: ["0"] }));
  await fake.tickAsync(10);
  await spectator.close();
  await collected;
  const shown = events.map((e) =>
    e.type === "connected"
      ? `connected ${e.address} after ${e.attempts}`
      : e.type === "disconnected"
      ? `disconnected ${e.address} ${e.code}`
      : e.type === "reconnecting"
      ? `reconnecting #${e.attempt} after ${e.address} ${e.code} in ${e.delayMs} ms: ${e.error.message}`
      : e.type
  );
  assert.deepEqual(shown, [
    "connected x after 0",
    "disconnected x UNAVAILABLE",
    "reconnecting #1 after x UNAVAILABLE in 0 ms: The service at x is unavailable: connection reset",
    "reconnecting #2 after y UNAVAILABLE in 0 ms: The service at y is unavailable: connection reset",
    "connected x after 2",
  ]);
});

Deno.test("a lost stream logs one warning, and one info line when a stream delivers again", async () => {
  const { logger, lines } = recordingLogger();
  const { spectator, stream, fake } = setup({ logger });
  (await stream(0)).push(snapshot({ a: ["0"] }));
  await spectator.ready;
  (await stream(0)).fail(reset());
  for (let i = 1; i < 6; i++) (await stream(i)).fail(reset());
  await fake.tickAsync(1_000);
  (await stream(6)).push(snapshot({ a: ["0"] }));
  await fake.tickAsync(10);
  await spectator.close();
  assert.deepEqual(lines.map((l) => l.level), ["warn", "info"]);
  assert.match(
    lines[0]!.message,
    /^Spectator watch streams \(namespace "ns"\) failing at x with UNAVAILABLE: The service at x is unavailable: connection reset/,
  );
  assert.equal(lines[0]!.context?.namespace, "ns");
  assert.match(lines[1]!.message, /succeed again at x after \d\.\d s and 6 failed attempts$/);
});

Deno.test("the meter gets staleness (0 while connected, growing while not) and reconnects by code", async () => {
  const { meter, measurements, collect, callbacks } = recordingMeter();
  const { spectator, stream, fake } = setup({ meter, logger: false });
  assert.deepEqual(collect(), [], "no value before the first snapshot");
  (await stream(0)).push(snapshot({ a: ["0"] }));
  await spectator.ready;
  assert.deepEqual(collect(), [{
    name: "shard_manager.sdk.spectator.staleness",
    value: 0,
    attributes: { namespace: "ns" },
  }]);
  (await stream(0)).fail(reset());
  await stream(1); // the next attempt is open and waits
  await fake.tickAsync(2_000);
  const age = collect()[0]?.value ?? 0;
  assert.ok(age >= 2 && age < 3, `staleness in seconds, got ${age}`);
  assert.deepEqual(measurements, [{
    name: "shard_manager.sdk.spectator.reconnects",
    value: 1,
    attributes: { namespace: "ns", code: "UNAVAILABLE" },
  }]);
  await spectator.close();
  assert.equal(callbacks(), 0, "the gauge's callback is removed on close");
});
