/**
 * Who may call what: an identity (from a bearer token or a client
 * certificate) gets roles from the configuration, and each RPC needs a role
 * (`roles.ts`). No I/O after {@linkcode Authorizer.create}.
 *
 * @module
 */
import type { AuthConfig } from "../config/types.ts";
import { PermissionDeniedError, UnauthenticatedError } from "../core/errors.ts";
import { EXECUTOR_METHODS, grants, HEARTBEAT_METHOD, requiredRole, type Role } from "./roles.ts";
import { describeScope, inScope, type NamespaceScope } from "./namespace_scope.ts";
import { readSecret, type SecretSources, sha256Hex } from "./secrets.ts";

/** What the TLS layer verified about the client's certificate. */
export interface PeerCertificate {
  /** The subject's common name. */
  readonly commonName?: string;
  /** Subject alternative names as OpenSSL prints them: `DNS:host`, `URI:spiffe://...`. */
  readonly altNames: readonly string[];
}

/** One call to decide on. */
export interface CallInfo {
  /** The RPC's method name, e.g. `DrainShards`. */
  readonly method: string;
  /** The `authorization` metadata value, if sent. */
  readonly authorization?: string;
  /** The client's verified certificate, under mutual TLS. */
  readonly certificate?: PeerCertificate;
  /** For `Heartbeat` and `WatchExecutorAssignment`: the executor the call speaks for. */
  readonly executorId?: string;
  /** The namespace the call is about (its request's `namespace`); absent for calls about none. */
  readonly namespace?: string;
}

/** Whether the caller may see a namespace (for calls that list several). */
export type NamespaceFilter = (namespace: string) => boolean;

const ALL_NAMESPACES: NamespaceFilter = () => true;

/** The outcome: allowed (with who), or the error to answer. */
export type Decision =
  | {
    readonly allowed: true;
    readonly principal: string;
    /**
     * The namespaces this caller may see with the role the call needs: a
     * call that lists namespaces (`ListNamespaces`, `ListLeaders`) shows only these.
     */
    readonly sees: NamespaceFilter;
  }
  | {
    readonly allowed: false;
    readonly principal: string;
    readonly error: UnauthenticatedError | PermissionDeniedError;
  };

/** Roles granted by one rule, limited to its namespaces. */
interface Grant {
  readonly roles: readonly Role[];
  readonly namespaces: NamespaceScope;
}

interface Principal {
  readonly name: string;
  readonly grants: readonly Grant[];
  /** Executor ids it may heartbeat as; undefined: any. */
  readonly executorIds?: readonly string[];
}

const BEARER = /^Bearer[ \t]+(\S+)[ \t]*$/i;

/**
 * Decides calls under `security.auth`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { Authorizer } from "./authorizer.ts";
 *
 * const authorizer = await Authorizer.create(
 *   { tokens: [{ name: "ops", roles: ["operator"], env: "OPS" }], certificates: [], anonymousRoles: [] },
 *   { env: () => "t0ken" },
 * );
 * const ok = await authorizer.check({ method: "DrainShards", authorization: "Bearer t0ken" });
 * assert.ok(ok.allowed);
 * const anonymous = await authorizer.check({ method: "DrainShards" });
 * assert.ok(!anonymous.allowed);
 * ```
 */
export class Authorizer {
  readonly #tokens: ReadonlyMap<string, Principal>;
  readonly #config: AuthConfig;

  private constructor(config: AuthConfig, tokens: Map<string, Principal>) {
    this.#config = config;
    this.#tokens = tokens;
  }

  /** Reads the tokens named by `config` (environment, files) and keeps their digests. */
  static async create(config: AuthConfig, sources: SecretSources = {}): Promise<Authorizer> {
    const tokens = new Map<string, Principal>();
    for (const [index, rule] of config.tokens.entries()) {
      const what = `security.auth.tokens[${index}] (${rule.name})`;
      const digest = rule.sha256 ??
        await sha256Hex(
          await readSecret(
            { ...(rule.env ? { env: rule.env } : {}), ...(rule.file ? { file: rule.file } : {}) },
            what,
            sources,
          ),
        );
      const other = tokens.get(digest);
      if (other) throw new Error(`${what}: the same token as ${other.name}`);
      tokens.set(digest, {
        name: `token:${rule.name}`,
        grants: [{ roles: rule.roles, namespaces: rule.namespaces }],
        ...(rule.executorId ? { executorIds: [rule.executorId] } : {}),
      });
    }
    return new Authorizer(config, tokens);
  }

  /**
   * Decides a call. A token, when sent, is the identity (an unknown token is
   * UNAUTHENTICATED even with a certificate); else the certificate; else the
   * call is anonymous. A known identity without the role is PERMISSION_DENIED;
   * an anonymous one is UNAUTHENTICATED. A role limited to some namespaces
   * (`namespaces:` on its rule) counts only for calls about those; a call
   * about another is PERMISSION_DENIED.
   */
  async check(call: CallInfo): Promise<Decision> {
    const required = requiredRole(call.method);
    let principal: Principal;
    if (call.authorization !== undefined) {
      const token = BEARER.exec(call.authorization)?.[1];
      if (token === undefined) {
        return denyAuth(
          "anonymous",
          "Expected authorization metadata of the form 'Bearer <token>'",
        );
      }
      const found = this.#tokens.get(await sha256Hex(token));
      if (!found) return denyAuth("anonymous", "Unknown bearer token");
      principal = found;
    } else if (call.certificate) {
      principal = this.#certificatePrincipal(call.certificate);
    } else {
      if (grants(this.#config.anonymousRoles, required)) {
        return { allowed: true, principal: "anonymous", sees: ALL_NAMESPACES };
      }
      return denyAuth(
        "anonymous",
        `${call.method} needs the ${required} role: send a bearer token or a client certificate`,
      );
    }
    const granting = principal.grants.filter((grant) => grants(grant.roles, required));
    if (granting.length === 0) {
      const roles = [...new Set(principal.grants.flatMap((grant) => grant.roles))];
      return denyRole(
        principal.name,
        `${principal.name} may not call ${call.method}: it needs the ${required} role, ` +
          `granted roles: ${roles.join(", ") || "none"}`,
      );
    }
    const sees: NamespaceFilter = granting.some((grant) => grant.namespaces === undefined)
      ? ALL_NAMESPACES
      : (namespace) => granting.some((grant) => inScope(grant.namespaces, namespace));
    if (call.namespace !== undefined && !sees(call.namespace)) {
      return denyRole(
        principal.name,
        `${principal.name} may not call ${call.method} on namespace ${
          JSON.stringify(call.namespace)
        }: its ${required} role is limited to ${
          granting.map((grant) => describeScope(grant.namespaces)).join("; ")
        }`,
      );
    }
    if (EXECUTOR_METHODS.has(call.method) && principal.executorIds !== undefined) {
      const id = call.executorId ?? "";
      if (!principal.executorIds.includes(id)) {
        return denyRole(
          principal.name,
          `${principal.name} may ${
            call.method === HEARTBEAT_METHOD ? "heartbeat" : `call ${call.method}`
          } only as itself (${
            principal.executorIds.map((e) => JSON.stringify(e)).join(" or ")
          }), not as executor ${JSON.stringify(id)}`,
        );
      }
    }
    return { allowed: true, principal: principal.name, sees };
  }

  #certificatePrincipal(certificate: PeerCertificate): Principal {
    const cn = certificate.commonName;
    const values = certificate.altNames.map((name) => name.slice(name.indexOf(":") + 1));
    const names = [...(cn ? [cn] : []), ...certificate.altNames, ...values];
    const name = `certificate:${cn ?? certificate.altNames[0] ?? "?"}`;
    const ruleGrants: Grant[] = [];
    let executorIds: string[] | undefined;
    for (const rule of this.#config.certificates) {
      if (rule.subject !== "*" && !names.includes(rule.subject)) continue;
      ruleGrants.push({ roles: rule.roles, namespaces: rule.namespaces });
      if (rule.executorId) (executorIds ??= []).push(rule.executorId);
    }
    // Bound to itself: the executor ids named by its rules, or else its own names.
    return {
      name,
      grants: ruleGrants,
      executorIds: executorIds ?? [...(cn ? [cn] : []), ...values],
    };
  }
}

function denyAuth(principal: string, message: string): Decision {
  return { allowed: false, principal, error: new UnauthenticatedError(message) };
}

function denyRole(principal: string, message: string): Decision {
  return { allowed: false, principal, error: new PermissionDeniedError(message) };
}
