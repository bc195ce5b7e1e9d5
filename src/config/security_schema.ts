/**
 * Zod schemas for the `security` section (TLS and roles of the gRPC API) and
 * for the `tls` and `auth` keys of an etcd store's `storageParams`.
 *
 * @module
 */
import { z } from "zod";
import { section } from "./_fields.ts";
import type { SectionSchema } from "./section_schema.ts";
import type {
  AuthConfig,
  CertificateRule,
  EtcdAuthConfig,
  EtcdTlsConfig,
  SecurityConfig,
  ServerTlsConfig,
  TokenRule,
} from "./types.ts";

const path = () => z.string().min(1);
const roles = () => z.array(z.enum(["spectator", "executor", "operator"]));
const namespaces = () =>
  z.array(z.string().min(1)).min(1, {
    error: "expected at least one namespace name or glob; omit the key to cover every namespace",
  });
const SHA256 = /^[0-9a-f]{64}$/i;

/** Drops the keys whose value is undefined (optional properties are absent, not undefined). */
function defined<T extends object>(value: T): { [K in keyof T]: Exclude<T[K], undefined> } {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as never;
}

/** Adds an issue unless exactly one of `keys` is set. */
function exactlyOne(keys: readonly string[]) {
  return (value: Record<string, unknown>, ctx: z.RefinementCtx) => {
    const set = keys.filter((key) => value[key] !== undefined);
    if (set.length === 1) return;
    ctx.addIssue({
      code: "custom",
      input: value,
      message: set.length === 0
        ? `expected one of ${keys.join(", ")}`
        : `expected only one of ${keys.join(", ")}, got ${set.join(" and ")}`,
    });
  };
}

/**
 * `security.tls`: the server's certificate and key; with `clientCaFile`,
 * clients must present a certificate that CA signed (mutual TLS).
 *
 * @example Usage
 * ```ts
 * import { serverTlsSchema } from "./security_schema.ts";
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(serverTlsSchema.parse({ certFile: "s.crt", keyFile: "s.key" }), {
 *   certFile: "s.crt",
 *   keyFile: "s.key",
 * });
 * ```
 */
export const serverTlsSchema: SectionSchema<ServerTlsConfig> = section({
  certFile: path(),
  keyFile: path(),
  clientCaFile: path().optional(),
}).transform((tls): ServerTlsConfig => defined(tls));

const tokenRuleSchema: SectionSchema<TokenRule> = section({
  name: z.string().min(1),
  roles: roles(),
  sha256: z.string().regex(SHA256, { error: "expected 64 hex digits (sha256sum of the token)" })
    .transform((hex) => hex.toLowerCase()).optional(),
  env: z.string().min(1).optional(),
  file: path().optional(),
  executorId: z.string().min(1).optional(),
  namespaces: namespaces().optional(),
}).superRefine(exactlyOne(["sha256", "env", "file"]))
  .transform((rule): TokenRule => defined(rule));

const certificateRuleSchema: SectionSchema<CertificateRule> = section({
  subject: z.string().min(1),
  roles: roles(),
  executorId: z.string().min(1).optional(),
  namespaces: namespaces().optional(),
}).transform((rule): CertificateRule => defined(rule));

/**
 * `security.auth`: bearer tokens (never in clear text in the file: a SHA-256,
 * an environment variable or a file) and client certificates, each with roles.
 *
 * @example Usage
 * ```ts
 * import { authSchema } from "./security_schema.ts";
 * import assert from "node:assert/strict";
 *
 * const auth = authSchema.parse({ tokens: [{ name: "ops", roles: ["operator"], env: "OPS_TOKEN" }] });
 * assert.deepEqual(auth.certificates, []);
 * assert.deepEqual(auth.anonymousRoles, []);
 * ```
 */
export const authSchema: SectionSchema<AuthConfig> = section({
  tokens: z.array(tokenRuleSchema).default([]),
  certificates: z.array(certificateRuleSchema).default([]),
  anonymousRoles: roles().default([]),
});

/**
 * `security`; may be omitted (plaintext, every call allowed). Certificate
 * rules need mutual TLS (`tls.clientCaFile`).
 *
 * @example Usage
 * ```ts
 * import { securitySchema } from "./security_schema.ts";
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(securitySchema.parse({}), {});
 * assert.equal(
 *   securitySchema.safeParse({ auth: { certificates: [{ subject: "*", roles: ["executor"] }] } })
 *     .success,
 *   false,
 * );
 * ```
 */
export const securitySchema: SectionSchema<SecurityConfig> = section({
  tls: serverTlsSchema.optional(),
  auth: authSchema.optional(),
}).superRefine((security, ctx) => {
  if ((security.auth?.certificates.length ?? 0) > 0 && !security.tls?.clientCaFile) {
    ctx.addIssue({
      code: "custom",
      path: ["auth", "certificates"],
      input: security.auth?.certificates,
      message:
        "need mutual TLS: set security.tls.clientCaFile to the CA of the client certificates",
    });
  }
}).transform((security): SecurityConfig => defined(security));

/**
 * `storageParams.tls` of an etcd store.
 *
 * @example Usage
 * ```ts
 * import { etcdTlsSchema } from "./security_schema.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(etcdTlsSchema.safeParse({ caFile: "ca.crt", certFile: "c.crt" }).success, false);
 * ```
 */
export const etcdTlsSchema: SectionSchema<EtcdTlsConfig> = section({
  caFile: path(),
  certFile: path().optional(),
  keyFile: path().optional(),
  serverName: z.string().min(1).optional(),
}).superRefine((tls, ctx) => {
  if ((tls.certFile === undefined) !== (tls.keyFile === undefined)) {
    ctx.addIssue({
      code: "custom",
      path: [tls.certFile === undefined ? "certFile" : "keyFile"],
      input: undefined,
      message: "certFile and keyFile must be given together",
    });
  }
}).transform((tls): EtcdTlsConfig => defined(tls));

/**
 * `storageParams.auth` of an etcd store: a username and the password from
 * exactly one of `password`, `passwordEnv` and `passwordFile`.
 *
 * @example Usage
 * ```ts
 * import { etcdAuthSchema } from "./security_schema.ts";
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(etcdAuthSchema.parse({ username: "sm", passwordEnv: "ETCD_PASSWORD" }), {
 *   username: "sm",
 *   passwordEnv: "ETCD_PASSWORD",
 * });
 * ```
 */
export const etcdAuthSchema: SectionSchema<EtcdAuthConfig> = section({
  username: z.string().min(1),
  password: z.string().optional(),
  passwordEnv: z.string().min(1).optional(),
  passwordFile: path().optional(),
}).superRefine(exactlyOne(["password", "passwordEnv", "passwordFile"]))
  .transform((auth): EtcdAuthConfig => defined(auth));
