/**
 * The spectator's view of the service, as a port: the gRPC adapter
 * (`grpc_transport.ts`) implements it, and tests pass a fake.
 *
 * @module
 */
import type { Owner, PlacementUpdate } from "./types.ts";

/** Options of one call to the service. */
export interface TransportCallOptions {
  /** Cancels the call. */
  readonly signal?: AbortSignal;
  /** Deadline from now, in ms. */
  readonly deadlineMs?: number;
}

/** A namespace's shard model, as configured in the service. */
export type NamespaceType = "fixed" | "ephemeral";

/**
 * Calls to one of the service's addresses. Failures are thrown as errors
 * whose `code` is a gRPC status code when the service (or the channel) gave
 * one.
 */
export interface SpectatorTransport {
  /**
   * Watches `namespace` on `address`: yields each placement update until the
   * service ends the stream (the iteration ends) or the stream fails (it
   * throws). Aborting `signal` cancels the stream.
   */
  watch(address: string, namespace: string, signal: AbortSignal): AsyncIterable<PlacementUpdate>;
  /**
   * `GetShardOwner`: the owner of `shardKey`, which the service creates first
   * in an ephemeral namespace.
   */
  getShardOwner(
    address: string,
    namespace: string,
    shardKey: string,
    options?: TransportCallOptions,
  ): Promise<Owner & { readonly owners?: readonly Owner[] }>;
  /** The shard model of `namespace`, or undefined when the service does not know it. */
  namespaceType(
    address: string,
    namespace: string,
    options?: TransportCallOptions,
  ): Promise<NamespaceType | undefined>;
  /** Whether another address (or a later attempt) may succeed where `error` failed. */
  isRetryable(error: unknown): boolean;
  /** Releases connections. Calls after this fail. */
  close(): void;
}
