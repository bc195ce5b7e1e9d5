/**
 * Server credentials from `security.tls`: plaintext when absent; TLS from PEM
 * files; mutual TLS (client certificate required and verified) when a client
 * CA is set. Every file is read and checked at start-up, so a missing,
 * unreadable or mismatched file stops the start with a message naming it.
 *
 * @module
 */
import * as grpc from "@grpc/grpc-js";
import { Buffer } from "node:buffer";
import { createPrivateKey, X509Certificate } from "node:crypto";
import type { ServerTlsConfig } from "../../config/types.ts";

/**
 * Builds the server's credentials; throws an `Error` naming the file at fault.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { serverCredentials } from "./server_credentials.ts";
 *
 * assert.equal(serverCredentials(undefined)._isSecure(), false);
 * ```
 */
export function serverCredentials(tls: ServerTlsConfig | undefined): grpc.ServerCredentials {
  if (!tls) return grpc.ServerCredentials.createInsecure();
  const cert = readPem(tls.certFile, "security.tls.certFile");
  const key = readPem(tls.keyFile, "security.tls.keyFile");
  let certificate: X509Certificate;
  try {
    certificate = new X509Certificate(cert);
  } catch (error) {
    throw new Error(
      `security.tls.certFile ${tls.certFile}: not a PEM certificate (${(error as Error).message})`,
    );
  }
  let privateKey;
  try {
    privateKey = createPrivateKey(key);
  } catch (error) {
    throw new Error(
      `security.tls.keyFile ${tls.keyFile}: not a PEM private key (${(error as Error).message})`,
    );
  }
  if (!certificate.checkPrivateKey(privateKey)) {
    throw new Error(
      `security.tls.keyFile ${tls.keyFile} does not match the certificate in ${tls.certFile}`,
    );
  }
  let ca: Buffer | null = null;
  if (tls.clientCaFile) {
    ca = readPem(tls.clientCaFile, "security.tls.clientCaFile");
    try {
      new X509Certificate(ca);
    } catch (error) {
      throw new Error(
        `security.tls.clientCaFile ${tls.clientCaFile}: not a PEM certificate (${
          (error as Error).message
        })`,
      );
    }
  }
  // Without a client CA, grpc-js would pass the system roots as `ca`, which
  // breaks every handshake under Deno 2.9 ("wrong version number"); the roots
  // are unused when no client certificate is requested, so pass our own chain.
  return grpc.ServerCredentials.createSsl(
    ca ?? cert,
    [{ cert_chain: cert, private_key: key }],
    ca !== null,
  );
}

function readPem(path: string, key: string): Buffer {
  try {
    return Buffer.from(Deno.readFileSync(path));
  } catch (error) {
    throw new Error(`${key}: cannot read ${path}: ${(error as Error).message}`);
  }
}
