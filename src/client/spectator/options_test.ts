import assert from "node:assert/strict";
import { resolveOptions, type SpectatorOptions } from "./options.ts";
import { createSpectator } from "./create_spectator.ts";
import { InvalidOptionsError } from "../common/errors.ts";

const base: SpectatorOptions = { addresses: ["127.0.0.1:7943"], namespace: "orders" };

Deno.test("resolveOptions fills in the documented defaults", () => {
  const resolved = resolveOptions(base);
  assert.deepEqual(resolved.backoff, { baseMs: 100, maxMs: 5_000 });
  assert.equal(resolved.firstSnapshotTimeoutMs, 10_000);
  assert.equal(resolved.callTimeoutMs, 5_000);
  assert.equal(resolved.namespaceType, undefined);
});

Deno.test("addresses may be one string or a list, each host:port", () => {
  assert.deepEqual(resolveOptions({ ...base, addresses: "127.0.0.1:7943" }).addresses, [
    "127.0.0.1:7943",
  ]);
  assert.deepEqual(resolveOptions({ ...base, addresses: ["a:1", "[::1]:7943"] }).addresses, [
    "a:1",
    "[::1]:7943",
  ]);
});

Deno.test("invalid options fail up front with INVALID_OPTIONS, the option and the value given", () => {
  const cases: [Partial<SpectatorOptions> | Record<string, unknown>, string, RegExp][] = [
    [
      { addresses: [] },
      "addresses",
      /addresses must be "host:port" or a non-empty array .* got \[\]/,
    ],
    [{ addresses: ["a:1", " "] }, "addresses", /" " is not a valid address: empty/],
    [{ addresses: "http://127.0.0.1:7943" }, "addresses", /without a scheme/],
    [{ addresses: "localhost" }, "addresses", /"localhost" is not a valid address: no port/],
    [{ addresses: "localhost:70000" }, "addresses", /port 70000 is out of range/],
    [{ namespace: "" }, "namespace", /namespace must be a non-empty string, got ""/],
    [
      { namespaceType: "fixd" },
      "namespaceType",
      /namespaceType must be "fixed" or "ephemeral", got "fixd"/,
    ],
    [
      { backoff: { baseMs: 0 } },
      "backoff.baseMs",
      /backoff.baseMs must be a positive number .* got 0/,
    ],
    [{ backoff: { baseMs: 500, maxMs: 100 } }, "backoff.maxMs", /backoff.maxMs must be at least/],
    [{ firstSnapshotTimeoutMs: -1 }, "firstSnapshotTimeoutMs", /firstSnapshotTimeoutMs .* got -1/],
    [{ callTimeoutMs: Infinity }, "callTimeoutMs", /callTimeoutMs .* got null/],
  ];
  for (const [override, option, message] of cases) {
    const options = { ...base, ...override } as SpectatorOptions;
    assert.throws(
      () => createSpectator(options),
      (e: unknown) =>
        e instanceof InvalidOptionsError && e.code === "INVALID_OPTIONS" && e.option === option &&
        message.test(e.message),
      JSON.stringify(override),
    );
  }
});
