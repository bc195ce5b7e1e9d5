/**
 * Channel credentials for the SDKs and smctl: plaintext by default, TLS or
 * mutual TLS from PEM files, and a bearer token sent with every call.
 *
 * @module
 */
import type { Buffer } from "node:buffer";
import { readFileSync } from "node:fs";
import { grpc } from "../../wire/packages.ts";

/** How a client secures its connection. */
export interface ClientTlsOptions {
  /** Use TLS. Implied by any of the file options. @default {false} */
  readonly tls?: boolean;
  /** PEM file of the CA that signed the server's certificate (default: system roots). */
  readonly caFile?: string;
  /** PEM file of this client's certificate, for mutual TLS. */
  readonly certFile?: string;
  /** PEM file of this client's private key, for mutual TLS. */
  readonly keyFile?: string;
  /**
   * Name to verify in the server's certificate instead of the address's host.
   * Under Deno, TLS to an address given as an IP needs this (a host name works as is).
   */
  readonly serverName?: string;
  /**
   * Bearer token sent as `authorization: Bearer <token>` on every call, with
   * or without TLS (send it over TLS: it is a password).
   */
  readonly token?: string;
}

/**
 * Builds channel credentials and the channel options they need. Throws a
 * clear `Error` when a file cannot be read or only one of cert and key is set.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { clientCredentials } from "./credentials.ts";
 *
 * const { options } = clientCredentials({});
 * assert.equal(Object.keys(options).length, 0);
 * ```
 */
export function clientCredentials(tls: ClientTlsOptions = {}): {
  credentials: grpc.ChannelCredentials;
  options: grpc.ChannelOptions;
} {
  const auth: grpc.ChannelOptions = tls.token === undefined
    ? {}
    : { interceptors: [bearerInterceptor(tls.token)] };
  const secure = tls.tls || tls.caFile || tls.certFile || tls.keyFile || tls.serverName;
  if (!secure) return { credentials: grpc.credentials.createInsecure(), options: auth };
  if (Boolean(tls.certFile) !== Boolean(tls.keyFile)) {
    throw new Error("TLS client certificate and key must be given together");
  }
  const credentials = grpc.credentials.createSsl(
    tls.caFile ? readPem(tls.caFile, "CA") : null,
    tls.keyFile ? readPem(tls.keyFile, "key") : null,
    tls.certFile ? readPem(tls.certFile, "certificate") : null,
  );
  const options: grpc.ChannelOptions = tls.serverName
    ? { "grpc.ssl_target_name_override": tls.serverName, "grpc.default_authority": tls.serverName }
    : {};
  return { credentials, options: { ...options, ...auth } };
}

/**
 * A client interceptor that adds `authorization: Bearer <token>`. (Call
 * credentials would do the same but grpc-js refuses them on plaintext channels.)
 * Note: a grpc-js `Client` takes `interceptors` out of the options object it
 * is given, so pass each client its own copy of the options.
 */
function bearerInterceptor(token: string): grpc.Interceptor {
  if (token === "" || /\s/.test(token)) {
    throw new Error("The bearer token must be non-empty and contain no whitespace");
  }
  const value = `Bearer ${token}`;
  return (options, next) =>
    new grpc.InterceptingCall(next(options), {
      start(metadata, listener, start) {
        metadata.set("authorization", value);
        start(metadata, listener);
      },
    });
}

function readPem(path: string, what: string): Buffer {
  try {
    return readFileSync(path);
  } catch (error) {
    throw new Error(`cannot read TLS ${what} file ${path}: ${(error as Error).message}`);
  }
}
