/**
 * Creating etcd clients from storage parameters.
 *
 * @module
 */
import { Etcd3 } from "etcd3";

/** Connection settings of one etcd cluster. */
export interface EtcdConnection {
  /** `host:port` or URLs of the members. */
  readonly endpoints: readonly string[];
  /** How long to wait for a connection, in ms. */
  readonly dialTimeoutMs: number;
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

/** Turns `host:port` into a URL; URLs are kept. */
export function endpointUrl(endpoint: string): string {
  return /^[a-z]+:\/\//i.test(endpoint) ? endpoint : `http://${endpoint}`;
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
  return new Etcd3({
    hosts: connection.endpoints.map(endpointUrl),
    dialTimeout: connection.dialTimeoutMs,
    grpcOptions: { "grpc.max_receive_message_length": MAX_RECEIVE_BYTES },
    defaultCallOptions: (context) =>
      context.isStream ? {} : { deadline: Date.now() + CALL_TIMEOUT_MS },
  });
}
