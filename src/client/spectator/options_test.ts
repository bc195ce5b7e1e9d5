import assert from "node:assert/strict";
import { resolveOptions, type SpectatorOptions } from "./options.ts";
import { createSpectator } from "./create_spectator.ts";

const base: SpectatorOptions = { addresses: ["127.0.0.1:7943"], namespace: "orders" };

Deno.test("resolveOptions fills in the documented defaults", () => {
  const resolved = resolveOptions(base);
  assert.deepEqual(resolved.backoff, { baseMs: 100, maxMs: 5_000 });
  assert.equal(resolved.firstSnapshotTimeoutMs, 10_000);
  assert.equal(resolved.callTimeoutMs, 5_000);
  assert.equal(resolved.namespaceType, undefined);
});

Deno.test("invalid options fail up front with the option and the value given", () => {
  const cases: [Partial<SpectatorOptions> | Record<string, unknown>, ErrorConstructor, RegExp][] = [
    [{ addresses: [] }, TypeError, /addresses must be a non-empty array .* got \[\]/],
    [{ addresses: "127.0.0.1:7943" }, TypeError, /addresses must be a non-empty array/],
    [{ addresses: ["a:1", " "] }, TypeError, /addresses must be non-empty strings, got " "/],
    [{ namespace: "" }, TypeError, /namespace must be a non-empty string, got ""/],
    [
      { namespaceType: "fixd" },
      TypeError,
      /namespaceType must be "fixed" or "ephemeral", got "fixd"/,
    ],
    [{ backoff: { baseMs: 0 } }, RangeError, /backoff.baseMs must be a positive number .* got 0/],
    [{ backoff: { baseMs: 500, maxMs: 100 } }, RangeError, /backoff.maxMs must be at least/],
    [{ firstSnapshotTimeoutMs: -1 }, RangeError, /firstSnapshotTimeoutMs .* got -1/],
    [{ callTimeoutMs: Infinity }, RangeError, /callTimeoutMs .* got null/],
  ];
  for (const [override, type, message] of cases) {
    const options = { ...base, ...override } as SpectatorOptions;
    assert.throws(() => createSpectator(options), type, JSON.stringify(override));
    assert.throws(() => createSpectator(options), message);
  }
});
