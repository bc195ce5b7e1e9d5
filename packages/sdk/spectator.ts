/**
 * `@shard-manager/sdk/spectator`: the spectator SDK. Route requests to the
 * executor that owns a shard, answered from a local map that a
 * `WatchNamespaceState` stream keeps current. Guide: docs/sdk_spectator.md.
 *
 * @example Lookups fail clearly before the first snapshot
 * ```ts
 * import assert from "node:assert/strict";
 * import { Spectator, SpectatorNotReadyError } from "./spectator.ts";
 *
 * await using spectator = new Spectator({ addresses: "127.0.0.1:1", namespace: "orders" });
 * assert.throws(() => spectator.ownerOf("7"), SpectatorNotReadyError);
 * ```
 *
 * @module
 */
export * from "../../src/client/spectator/mod.ts";
