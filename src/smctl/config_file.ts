/**
 * smctl's saved contexts: a YAML file of named clusters with their
 * endpoints, credentials and default namespace, and the one in use.
 *
 * ```yaml
 * current-context: prod
 * contexts:
 *   - name: prod
 *     endpoints: [sm-1.prod:7943, sm-2.prod:7943]
 *     namespace: orders
 *     token-file: /home/me/.config/smctl/prod.token
 *     ca-file: /etc/sm/ca.pem
 *   - name: local
 *     address: 127.0.0.1:7943
 * ```
 *
 * The file is `$SMCTL_CONFIG`, else `$XDG_CONFIG_HOME/smctl/config.yaml`,
 * else `~/.config/smctl/config.yaml`. A missing file is no contexts.
 *
 * @module
 */
import { parse as parseYaml, stringify as toYaml } from "yaml";
import { UsageError } from "./errors.ts";

/** One saved context. */
export interface SavedContext {
  /** Its name. */
  readonly name: string;
  /** Instances to call, in order. */
  readonly endpoints?: readonly string[];
  /** One instance (when `endpoints` is not given). */
  readonly address?: string;
  /** Default namespace. */
  readonly namespace?: string;
  /** Bearer token (prefer `token-file`). */
  readonly token?: string;
  /** File holding the bearer token. */
  readonly "token-file"?: string;
  /** Connect with TLS. */
  readonly tls?: boolean;
  /** CA file. */
  readonly "ca-file"?: string;
  /** Client certificate file. */
  readonly "cert-file"?: string;
  /** Client key file. */
  readonly "key-file"?: string;
  /** Name to verify in the server's certificate. */
  readonly "server-name"?: string;
}

/** The whole file. */
export interface SmctlConfig {
  /** The context used when neither `--context` nor `SMCTL_CONTEXT` names one. */
  readonly "current-context"?: string;
  /** The contexts. */
  readonly contexts: readonly SavedContext[];
}

const STRING_KEYS = [
  "address",
  "namespace",
  "token",
  "token-file",
  "ca-file",
  "cert-file",
  "key-file",
  "server-name",
] as const;

/**
 * Where the file is.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { configPath } from "./config_file.ts";
 *
 * assert.equal(configPath({ SMCTL_CONFIG: "/tmp/c.yaml" }), "/tmp/c.yaml");
 * assert.equal(configPath({ HOME: "/home/me" }), "/home/me/.config/smctl/config.yaml");
 * ```
 */
export function configPath(env: Readonly<Record<string, string | undefined>>): string {
  if (env.SMCTL_CONFIG) return env.SMCTL_CONFIG;
  if (env.XDG_CONFIG_HOME) return `${env.XDG_CONFIG_HOME}/smctl/config.yaml`;
  if (!env.HOME) throw new UsageError("cannot find smctl's config file: set SMCTL_CONFIG or HOME");
  return `${env.HOME}/.config/smctl/config.yaml`;
}

/**
 * Reads and checks the file's text; errors name the file and the key.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseConfig } from "./config_file.ts";
 *
 * const config = parseConfig("contexts:\n  - name: a\n    endpoints: [h:1, h:2]\n", "c.yaml");
 * assert.deepEqual(config.contexts[0]?.endpoints, ["h:1", "h:2"]);
 * assert.throws(() => parseConfig("contexts:\n  - endpoints: [h:1]\n", "c.yaml"), /contexts\[0\]\.name/);
 * ```
 */
export function parseConfig(text: string, path: string): SmctlConfig {
  let raw: unknown;
  try {
    raw = parseYaml(text);
  } catch (error) {
    throw new UsageError(`${path}: not YAML: ${(error as Error).message.split("\n")[0]}`);
  }
  if (raw === null || raw === undefined) return { contexts: [] };
  const bad = (where: string, what: string): never => {
    throw new UsageError(`${path}: ${where} ${what}`);
  };
  if (typeof raw !== "object" || Array.isArray(raw)) bad("the file", "must be a mapping");
  const top = raw as Record<string, unknown>;
  const current = top["current-context"];
  if (current !== undefined && typeof current !== "string") {
    bad("current-context", "must be a string");
  }
  const list = top.contexts ?? [];
  if (!Array.isArray(list)) bad("contexts", "must be a list");
  const contexts = (list as unknown[]).map((item, i): SavedContext => {
    const where = `contexts[${i}]`;
    if (item === null || typeof item !== "object" || Array.isArray(item)) {
      bad(where, "must be a mapping");
    }
    const c = item as Record<string, unknown>;
    if (typeof c.name !== "string" || c.name === "") {
      bad(`${where}.name`, "must be a non-empty string");
    }
    for (const key of STRING_KEYS) {
      if (c[key] !== undefined && typeof c[key] !== "string") {
        bad(`${where}.${key}`, "must be a string");
      }
    }
    if (c.tls !== undefined && typeof c.tls !== "boolean") {
      bad(`${where}.tls`, "must be true or false");
    }
    if (
      c.endpoints !== undefined &&
      !(Array.isArray(c.endpoints) && c.endpoints.every((e) => typeof e === "string"))
    ) bad(`${where}.endpoints`, "must be a list of host:port");
    const known = new Set<string>(["name", "endpoints", "tls", ...STRING_KEYS]);
    const unknown = Object.keys(c).find((k) => !known.has(k));
    if (unknown !== undefined) bad(`${where}.${unknown}`, "is not a context setting");
    return c as unknown as SavedContext;
  });
  const names = new Set<string>();
  for (const c of contexts) {
    if (names.has(c.name)) bad("contexts", `has ${JSON.stringify(c.name)} twice`);
    names.add(c.name);
  }
  return { ...(current === undefined ? {} : { "current-context": current as string }), contexts };
}

/** Reads the file at `path`; a missing file is an empty config. */
export function readConfig(path: string): SmctlConfig {
  let text: string;
  try {
    text = Deno.readTextFileSync(path);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return { contexts: [] };
    throw new UsageError(`cannot read ${path}: ${(error as Error).message}`);
  }
  return parseConfig(text, path);
}

/** Writes `config` to `path` (creating its directory), readable by its owner only. */
export function writeConfig(path: string, config: SmctlConfig): void {
  const dir = path.replace(/\/[^/]*$/, "");
  try {
    if (dir !== path && dir !== "") Deno.mkdirSync(dir, { recursive: true });
    Deno.writeTextFileSync(path, toYaml(config), { mode: 0o600 });
  } catch (error) {
    const hint =
      error instanceof Deno.errors.NotCapable || error instanceof Deno.errors.PermissionDenied
        ? " (smctl needs --allow-write to save its config)"
        : "";
    throw new UsageError(`cannot write ${path}: ${(error as Error).message}${hint}`);
  }
}

/**
 * The context in use: `name` (from `--context` or `SMCTL_CONTEXT`), else the
 * file's current one, else none; an unknown name is a usage error.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { selectContext } from "./config_file.ts";
 *
 * const config = { "current-context": "a", contexts: [{ name: "a" }, { name: "b" }] };
 * assert.equal(selectContext(config, undefined)?.name, "a");
 * assert.equal(selectContext(config, "b")?.name, "b");
 * assert.throws(() => selectContext(config, "c"), /no context "c"/);
 * ```
 */
export function selectContext(
  config: SmctlConfig,
  name: string | undefined,
): SavedContext | undefined {
  const wanted = name ?? config["current-context"];
  if (wanted === undefined || wanted === "") return undefined;
  const found = config.contexts.find((c) => c.name === wanted);
  if (!found) {
    throw new UsageError(
      `no context ${JSON.stringify(wanted)} in smctl's config; known: ${
        config.contexts.map((c) => c.name).join(", ") || "none"
      } (see smctl config get-contexts)`,
    );
  }
  return found;
}
