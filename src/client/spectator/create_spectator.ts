/**
 * The spectator's entry point.
 *
 * @module
 */
import { grpcTransport } from "./grpc_transport.ts";
import { resolveOptions, type SpectatorOptions } from "./options.ts";
import { Spectator } from "./spectator.ts";

/**
 * Starts a spectator of `options.namespace`: it subscribes to
 * `WatchNamespaceState` on one of `options.addresses` and keeps a local map
 * shard → owner, reconnecting (to the next address, with exponential backoff
 * and full jitter) whenever the stream fails or ends. While the service is
 * unreachable it keeps answering from the last snapshot; `staleness()` says
 * how old that is.
 *
 * Throws a `TypeError` or `RangeError` for invalid options.
 *
 * @example Route by shard key
 * ```ts ignore
 * import { createSpectator } from "./mod.ts";
 *
 * await using spectator = createSpectator({
 *   addresses: ["127.0.0.1:7943", "127.0.0.1:7944"],
 *   namespace: "orders",
 * });
 * await spectator.waitReady({ timeoutMs: 10_000 });
 * const owner = spectator.ownerOf("42"); // synchronous, from memory
 * const target = spectator.addressOf("42"); // owner.metadata.address
 * console.log(owner?.executorId, target, spectator.staleness().ageMs);
 * ```
 *
 * @example Ephemeral keys and changes
 * ```ts ignore
 * import { createSpectator } from "./mod.ts";
 *
 * await using spectator = createSpectator({ addresses: ["127.0.0.1:7943"], namespace: "entities" });
 * const address = await spectator.address("customer-17"); // asks GetShardOwner on a miss
 * for await (const change of spectator.changes()) {
 *   for (const { shard, from, to } of change.moved) console.log(`${shard}: ${from} -> ${to}`);
 * }
 * ```
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
  const resolved = resolveOptions(options);
  const transport = options.transport ?? grpcTransport({
    ...(options.tls === undefined && options.token === undefined
      ? {}
      : { tls: { ...options.tls, ...(options.token ? { token: options.token } : {}) } }),
    ...(options.channelOptions === undefined ? {} : { channelOptions: options.channelOptions }),
    backoff: resolved.backoff,
  });
  return new Spectator(resolved, transport, options);
}
