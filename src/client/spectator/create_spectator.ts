/**
 * The spectator's former entry point, kept for existing code.
 *
 * @module
 */
import type { SpectatorOptions } from "./options.ts";
import { Spectator } from "./spectator.ts";

/**
 * Creates a {@linkcode Spectator} and begins watching at once, without
 * waiting for the first snapshot: `await spectator.waitReady()` (or
 * `spectator.ready`) for that. Throws an `InvalidOptionsError` for invalid
 * options.
 *
 * @deprecated Use `await new Spectator(options).start()`, which waits for
 * the first snapshot and rejects at once on a wrong namespace or address.
 *
 * @example With a fake transport (no network)
 * ```ts
 * import assert from "node:assert/strict";
 * import { createSpectator, type SpectatorTransport } from "./mod.ts";
 *
 * const transport: SpectatorTransport = {
 *   async *watch(_address, _namespace, signal) {
 *     yield { kind: "snapshot", executors: [{ executorId: "a", metadata: { address: "a:80" }, shards: ["1"] }] };
 *     await new Promise((resolve) => signal.addEventListener("abort", resolve, { once: true }));
 *   },
 *   getShardOwner: () => Promise.reject(new Error("not in this test")),
 *   namespaceType: () => Promise.resolve("fixed"),
 *   isRetryable: () => true,
 *   close() {},
 * };
 * await using spectator = createSpectator({ addresses: ["fake"], namespace: "orders", transport });
 * await spectator.ready;
 * assert.equal(spectator.addressOf("1"), "a:80");
 * ```
 */
export function createSpectator(options: SpectatorOptions): Spectator {
  const spectator = new Spectator(options);
  spectator.waitReady().catch(() => {}); // begins watching; callers await `ready` or `waitReady`
  return spectator;
}
