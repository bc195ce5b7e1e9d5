/**
 * From validated storage parameters to an {@linkcode EtcdConnection}: reads
 * the TLS files and the password (inline, environment or file) once, at start-up.
 *
 * @module
 */
import type { StorageParams } from "../../config/types.ts";
import { readSecret, type SecretSources } from "../../security/secrets.ts";
import type { EtcdConnection } from "./client.ts";

/**
 * Reads what `params` names; `what` (e.g. `shardDistribution.store`) prefixes
 * errors, which name the file or variable at fault.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { etcdConnection } from "./connection.ts";
 *
 * const connection = await etcdConnection(
 *   { endpoints: ["localhost:2379"], dialTimeoutMs: 1_000, prefix: "store" },
 *   "shardDistribution.store",
 * );
 * assert.equal(connection.tls, undefined);
 * ```
 */
export async function etcdConnection(
  params: StorageParams,
  what: string,
  sources: SecretSources = {},
): Promise<EtcdConnection> {
  const { tls, auth } = params;
  const read = (path: string, key: string) => {
    try {
      return Deno.readFileSync(path);
    } catch (error) {
      throw new Error(
        `${what}.storageParams.tls.${key}: cannot read ${path}: ${(error as Error).message}`,
      );
    }
  };
  return {
    endpoints: params.endpoints,
    dialTimeoutMs: params.dialTimeoutMs,
    ...(tls
      ? {
        tls: {
          ca: read(tls.caFile, "caFile"),
          ...(tls.certFile ? { cert: read(tls.certFile, "certFile") } : {}),
          ...(tls.keyFile ? { key: read(tls.keyFile, "keyFile") } : {}),
          ...(tls.serverName ? { serverName: tls.serverName } : {}),
        },
      }
      : {}),
    ...(auth
      ? {
        auth: {
          username: auth.username,
          password: await readSecret(
            {
              ...(auth.password !== undefined ? { value: auth.password } : {}),
              ...(auth.passwordEnv ? { env: auth.passwordEnv } : {}),
              ...(auth.passwordFile ? { file: auth.passwordFile } : {}),
            },
            `${what}.storageParams.auth`,
            sources,
          ),
        },
      }
      : {}),
  };
}
