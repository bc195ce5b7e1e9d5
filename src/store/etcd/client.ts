/**
 * Creating etcd clients from storage parameters.
 *
 * @module
 */
import { Etcd3, type IOptions } from "etcd3";
import { Buffer } from "node:buffer";
import type { Logger } from "../../core/logger.ts";
import { MemberRest } from "./member_rest.ts";
import { guardWatches } from "./watch_guard.ts";

/** Connection settings of one etcd cluster. */
export interface EtcdConnection {
  /** `host:port` or URLs of the members. */
  readonly endpoints: readonly string[];
  /** How long to wait for a connection, in ms. */
  readonly dialTimeoutMs: number;
  /** TLS, as PEM bytes; the endpoints without a scheme then use `https://`. @default {plaintext} */
  readonly tls?: EtcdTlsMaterial;
  /** etcd username and password. @default {no authentication} */
  readonly auth?: { readonly username: string; readonly password: string };
}

/** TLS to etcd: the CA, and for client-certificate authentication a certificate and key. */
export interface EtcdTlsMaterial {
  /** PEM of the CA that signed etcd's certificate. */
  readonly ca: Uint8Array;
  /** PEM of this client's certificate. */
  readonly cert?: Uint8Array;
  /** PEM of this client's private key. */
  readonly key?: Uint8Array;
  /** Name to verify in etcd's certificate instead of the endpoint's host. */
  readonly serverName?: string;
}

/** Largest response accepted from etcd: whole-namespace reads can be large. */
const MAX_RECEIVE_BYTES = 512 * 1024 * 1024;

/**
 * Deadline of one unary etcd call. Without one, a call made while etcd is
 * unreachable waits for the connection to come back, and so would the
 * heartbeat or operator request behind it; with one it fails cleanly
 * (UNAVAILABLE) and the caller retries. Streams (watches, keep-alives) have none.
 */
export const CALL_TIMEOUT_MS = 10_000;

/**
 * gRPC keep-alive pings on each connection to etcd, so a stream (a watch, a
 * lease keep-alive) on a member that stopped answering (frozen, or its host
 * gone without a reset) ends and is opened again on another member instead of
 * staying silent. etcd refuses clients that ping more often than every 5 s
 * (`--grpc-keepalive-min-time`), hence 6 s; no answer within 2 s closes the
 * connection.
 */
export const KEEPALIVE_TIME_MS = 6_000;
/** How long a keep-alive ping may go unanswered, ms ({@linkcode KEEPALIVE_TIME_MS}). */
export const KEEPALIVE_TIMEOUT_MS = 2_000;

/**
 * Asks etcd to refuse a call when the member that serves it has no leader
 * (gRPC metadata `hasleader: true`, what etcd's Go client sends with
 * `WithRequireLeader`). A member cut off from its peers then fails calls at
 * once with "etcdserver: no leader" (UNAVAILABLE, which etcd3 retries on
 * another member) and ends the watches and lease keep-alives it serves,
 * instead of letting unary calls hang until their deadline and watches go
 * silent while the majority moves on.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { requireLeader } from "./client.ts";
 *
 * const set = new Map<string, string>();
 * const call = { metadata: { set: (k: string, v: string) => set.set(k, v) } };
 * assert.equal(requireLeader(call), call);
 * assert.equal(set.get("hasleader"), "true");
 * ```
 */
export function requireLeader<T extends { metadata: { set(key: string, value: string): void } }>(
  call: T,
): T {
  call.metadata.set("hasleader", "true");
  return call;
}

/** First wait before etcd3 retries a lost watch stream, ms. */
export const WATCH_RETRY_FIRST_MS = 100;

/**
 * Longest wait between etcd3's attempts to reconnect a lost watch stream, ms.
 * etcd3's own default grows to 30 s, so a watch could stay silent for half a
 * minute after etcd came back while reads and writes already worked (and an
 * operator write waits until the cache shows it). One attempt a second
 * against a dead endpoint is cheap.
 */
export const WATCH_RETRY_MAX_MS = 1_000;

type Host = NonNullable<NonNullable<IOptions["faultHandling"]>["host"]>;
type WatchBackoff = NonNullable<NonNullable<IOptions["faultHandling"]>["watchBackoff"]>;

function watchRetry(delayMs: number): WatchBackoff {
  return {
    duration: delayMs * (0.75 + Math.random() / 4), // jitter: a fleet does not retry in step
    next: () => watchRetry(Math.min(delayMs * 2, WATCH_RETRY_MAX_MS)),
  };
}

/**
 * The watch manager's backoff (etcd3 takes `next()` of it for each first
 * retry): {@linkcode WATCH_RETRY_FIRST_MS}, then doubling up to
 * {@linkcode WATCH_RETRY_MAX_MS}, each less up to a quarter at random.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { WATCH_RETRY_MAX_MS, watchBackoff } from "./client.ts";
 *
 * let retry = watchBackoff().next(undefined);
 * assert.ok(retry.duration <= 100);
 * for (let i = 0; i < 20; i++) retry = retry.next(undefined);
 * assert.ok(retry.duration <= WATCH_RETRY_MAX_MS);
 * ```
 */
export function watchBackoff(): WatchBackoff {
  return { duration: 0, next: () => watchRetry(WATCH_RETRY_FIRST_MS) };
}

/** Turns `host:port` into a URL (`https://` when `secure`); URLs are kept. */
export function endpointUrl(endpoint: string, secure = false): string {
  if (/^[a-z]+:\/\//i.test(endpoint)) return endpoint;
  return `${secure ? "https" : "http"}://${endpoint}`;
}

/**
 * Opens a client to the cluster at `connection.endpoints`, its watches
 * guarded against etcd3's unexpected-response crashes (watch_guard.ts);
 * `logger` hears of each response the guard dropped.
 *
 * @example
 * ```ts ignore
 * const client = createEtcdClient({ endpoints: ["127.0.0.1:2379"], dialTimeoutMs: 1000 });
 * await client.put("k").value("v");
 * client.close();
 * ```
 */
export function createEtcdClient(connection: EtcdConnection, logger?: Logger): Etcd3 {
  const { tls, auth } = connection;
  const rest = new MemberRest();
  const options: IOptions = {
    hosts: connection.endpoints.map((endpoint) => endpointUrl(endpoint, tls !== undefined)),
    dialTimeout: connection.dialTimeoutMs,
    grpcOptions: {
      "grpc.max_receive_message_length": MAX_RECEIVE_BYTES,
      "grpc.keepalive_time_ms": KEEPALIVE_TIME_MS,
      "grpc.keepalive_timeout_ms": KEEPALIVE_TIMEOUT_MS,
      // grpc-js takes this client option (with the channel's) for every call, streams included.
      callInvocationTransformer: requireLeader,
      ...(tls?.serverName ? { "grpc.ssl_target_name_override": tls.serverName } : {}),
    },
    defaultCallOptions: (context) =>
      context.isStream ? {} : { deadline: Date.now() + CALL_TIMEOUT_MS },
    faultHandling: {
      watchBackoff: watchBackoff(),
      // A member that gave no answer is passed over for a while (member_rest.ts).
      host: rest.policy.bind(rest) as unknown as Host,
    },
  };
  if (tls) {
    options.credentials = {
      rootCertificate: Buffer.from(tls.ca),
      ...(tls.cert ? { certChain: Buffer.from(tls.cert) } : {}),
      ...(tls.key ? { privateKey: Buffer.from(tls.key) } : {}),
    };
  }
  if (auth) options.auth = { username: auth.username, password: auth.password };
  const client = new Etcd3(options);
  guardWatches(client, (text) => logger?.warn(text, { endpoints: connection.endpoints.join(",") }));
  return client;
}
