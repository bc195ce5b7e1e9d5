/**
 * Channel credentials for the SDKs and smctl: plaintext by default, TLS or
 * mutual TLS from PEM files.
 *
 * @module
 */
import * as grpc from "@grpc/grpc-js";

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
  /** Name to verify in the server's certificate instead of the address's host. */
  readonly serverName?: string;
}

/**
 * Builds channel credentials and the channel options they need. Throws a
 * clear `Error` when a file cannot be read or only one of cert and key is set.
 *
 * @example
 * ```ts
 * import { clientCredentials } from "./credentials.ts";
 *
 * const { options } = clientCredentials({});
 * console.assert(Object.keys(options).length === 0);
 * ```
 */
export function clientCredentials(tls: ClientTlsOptions = {}): {
  credentials: grpc.ChannelCredentials;
  options: grpc.ChannelOptions;
} {
  const secure = tls.tls || tls.caFile || tls.certFile || tls.keyFile || tls.serverName;
  if (!secure) return { credentials: grpc.credentials.createInsecure(), options: {} };
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
  return { credentials, options };
}

function readPem(path: string, what: string): Buffer {
  try {
    return Buffer.from(Deno.readFileSync(path));
  } catch (error) {
    throw new Error(`cannot read TLS ${what} file ${path}: ${(error as Error).message}`);
  }
}
