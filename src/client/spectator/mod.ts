/**
 * The spectator SDK: route requests to the executor that owns a shard,
 * answered from a local map that a `WatchNamespaceState` stream keeps
 * current, and that keeps answering while the service is down.
 *
 * - `await new Spectator(options).start()` starts one; `ownerOf` / `addressOf` are
 *   synchronous lookups, `owner` / `address` wait for the first snapshot and
 *   ask the service on a miss in an ephemeral namespace.
 * - Replicated namespaces: `ownersOf` / `owners` give every owner, primary
 *   first, and `tryOwners` (also a method) tries them in turn.
 * - `staleness()` says whether the stream is connected and how old the
 *   answers may be; `changes()` yields placement changes (latest-value);
 *   `events()` yields connection events (`connected`, `disconnected`,
 *   `reconnecting`).
 * - Logs (`logger`, rate-limited: one line when an outage starts, one when
 *   it ends) and OpenTelemetry metrics (`meter`, or the application's global
 *   meter provider); see docs/sdk_spectator.md.
 * - Errors: every one is a {@linkcode ShardManagerError} with a `code`:
 *   {@linkcode SpectatorNotReadyError}, {@linkcode SpectatorClosedError},
 *   {@linkcode MissingMetadataError}, {@linkcode ShardOwnerLookupError}, ...
 *
 * See `docs/sdk_spectator.md`.
 *
 * @example
 * ```ts ignore
 * import { Spectator } from "./mod.ts";
 *
 * await using spectator = await new Spectator({ addresses: "127.0.0.1:7943", namespace: "orders" }).start();
 * console.log(spectator.addressOf("7"), spectator.staleness());
 * ```
 *
 * @module
 */
export { createSpectator } from "./create_spectator.ts";
export type { SpectatorOptions } from "./options.ts";
export { Spectator } from "./spectator.ts";
export type {
  AddressOptions,
  ChangeSet,
  ExecutorPlacement,
  Owner,
  Placement,
  PlacementChange,
  PlacementDelta,
  PlacementSnapshot,
  PlacementUpdate,
  ShardMove,
  SpectatorEvent,
  Staleness,
  WaitOptions,
  WaitReadyOptions,
} from "./types.ts";
export { tryOwners, type TryOwnersOptions } from "./try_owners.ts";
export {
  AllOwnersFailedError,
  MissingMetadataError,
  ShardOwnerLookupError,
  SpectatorClosedError,
  SpectatorNotReadyError,
} from "./errors.ts";
export type { NamespaceType, SpectatorTransport, TransportCallOptions } from "./transport.ts";
export type { SpectatorClock } from "./clock.ts";
export type { ClientTlsOptions } from "../common/credentials.ts";
export * from "../common/public_errors.ts";
export type { SubscribeOptions } from "../common/event_hub.ts";
