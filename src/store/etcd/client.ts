/**
 * Creating etcd clients from storage parameters.
 *
 * @module
 */
import { Etcd3, type IOptions } from "etcd3";
import { Buffer } from "node:buffer";

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

/** Turns `host:port` into a URL (`https://` when `secure`); URLs are kept. */
export function endpointUrl(endpoint: string, secure = false): string {
  if (/^[a-z]+:\/\//i.test(endpoint)) return endpoint;
  return `${secure ? "https" : "http"}://${endpoint}`;
}

/**
 * Opens a client to the cluster at `connection.endpoints`.
 *
 * @example
 * ```ts ignore
 * const client = createEtcdClient({ endpoints: ["127.0.0.1:2379"], dialTimeoutMs: 1000 });
 * await client.put("k").value("v");
 * client.close();
 * ```
 */
export function createEtcdClient(connection: EtcdConnection): Etcd3 {
  const { tls, auth } = connection;
  const options: IOptions = {
    hosts: connection.endpoints.map((endpoint) => endpointUrl(endpoint, tls !== undefined)),
    dialTimeout: connection.dialTimeoutMs,
    grpcOptions: {
      "grpc.max_receive_message_length": MAX_RECEIVE_BYTES,
      ...(tls?.serverName ? { "grpc.ssl_target_name_override": tls.serverName } : {}),
    },
    defaultCallOptions: (context) =>
      context.isStream ? {} : { deadline: Date.now() + CALL_TIMEOUT_MS },
  };
  if (tls) {
    options.credentials = {
      rootCertificate: Buffer.from(tls.ca),
      ...(tls.cert ? { certChain: Buffer.from(tls.cert) } : {}),
      ...(tls.key ? { privateKey: Buffer.from(tls.key) } : {}),
    };
  }
  if (auth) options.auth = { username: auth.username, password: auth.password };
  return new Etcd3(options);
}
