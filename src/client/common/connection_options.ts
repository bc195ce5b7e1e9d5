/**
 * What the executor, the spectator and the leader selector all take to reach
 * the service, defined once, and the bounds their `start()` takes.
 *
 * @module
 */
import type { ClientTlsOptions } from "./credentials.ts";

/**
 * How to reach the service: the same fields, with the same meaning, in
 * `ExecutorOptions`, `SpectatorOptions` and `LeaderSelectorOptions`.
 *
 * @example
 * ```ts
 * import type { ConnectionOptions } from "./connection_options.ts";
 *
 * const connection: ConnectionOptions = {
 *   addresses: ["10.0.0.1:7943", "10.0.0.2:7943"],
 *   token: "s3cret",
 *   tls: { caFile: "/etc/shard-manager/ca.pem" },
 * };
 * ```
 */
export interface ConnectionOptions {
  /**
   * Service address(es): `"host:port"` or a list of them (IPv6 as
   * `"[::1]:7943"`), the gRPC port (7943 by default), without a scheme.
   * Checked at construction. Failures move to the next address.
   */
  readonly addresses: string | readonly string[];
  /**
   * Bearer token sent as `authorization: Bearer <token>` on every call (for a
   * service with `security.auth`). Send it over TLS: it is a password.
   * @default {undefined} none
   */
  readonly token?: string;
  /** TLS or mutual TLS for the gRPC connections. @default {{}} plaintext */
  readonly tls?: ClientTlsOptions;
}

/** Bounds of `start()` on the executor, the spectator and the leader selector. */
export interface StartOptions {
  /** Gives up (rejects with the signal's reason, and closes) when it aborts. */
  readonly signal?: AbortSignal;
  /**
   * Gives up after this many ms (rejects with code `TIMEOUT`, its `cause` the
   * last failure, and closes).
   * @default {undefined} waits as long as failures are transient
   */
  readonly timeoutMs?: number;
}
