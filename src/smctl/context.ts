/**
 * What every command gets: the global flags, the output streams and a lazily
 * opened connection.
 *
 * @module
 */
import type { Command } from "commander";
import type { ClientTlsOptions } from "../client/common/credentials.ts";
import { Connection } from "./connection.ts";
import { UsageError } from "./errors.ts";
import { Output, type OutputFormat } from "./output.ts";
import { checkAddress } from "./address.ts";
import { configPath, readConfig, type SavedContext, selectContext } from "./config_file.ts";
import { parseJsonPath } from "./jsonpath.ts";

/** The global flags as commander parses them. */
export interface GlobalOptions {
  /** `--address`. */
  readonly address: string;
  /** `--endpoints`, comma-separated. */
  readonly endpoints?: string;
  /** `-o`/`--output`: a format, or `jsonpath=TEMPLATE`. */
  readonly output?: string;
  /** `--no-headers` (commander's negation: false when given). */
  readonly headers?: boolean;
  /** `--context`. */
  readonly context?: string;
  /** `--namespace`/`-n`. */
  readonly namespace?: string;
  /** `--json`. */
  readonly json?: boolean;
  /** `--timeout`, already in ms. */
  readonly timeout: number;
  /** `--tls`. */
  readonly tls?: boolean;
  /** `--ca-file`. */
  readonly caFile?: string;
  /** `--cert-file`. */
  readonly certFile?: string;
  /** `--key-file`. */
  readonly keyFile?: string;
  /** `--server-name`. */
  readonly serverName?: string;
  /** `--token` or `SM_TOKEN`. */
  readonly token?: string;
}

/**
 * One command's run: flags, output and connection.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { Command } from "commander";
 * import { Context } from "./context.ts";
 *
 * let seen = "";
 * const program = new Command("smctl").option("-n, --namespace <name>");
 * program.command("executor").command("list").action((_opts, command: Command) => {
 *   const ctx = new Context(command);
 *   seen = `${ctx.commandName} in ${ctx.namespace()}`;
 *   ctx.close(); // no call was made, so no connection was opened
 * });
 * await program.parseAsync(["-n", "orders", "executor", "list"], { from: "user" });
 * assert.equal(seen, "executor list in orders");
 * ```
 */
export class Context {
  /** The global flags. */
  readonly options: GlobalOptions;
  /** The output streams. */
  readonly output: Output;
  /** The command's path for messages, e.g. `executor list`. */
  readonly commandName: string;
  #connection: Connection | undefined;
  #root: Command;
  #saved: { context: SavedContext | undefined } | undefined;

  /** Builds the context of `command` from its (and its parents') options. */
  constructor(command: Command) {
    this.options = command.optsWithGlobals<GlobalOptions & Record<string, unknown>>();
    let root = command;
    while (root.parent) root = root.parent;
    this.#root = root;
    const format = this.#format();
    const template = format.startsWith("jsonpath=")
      ? parseJsonPath(format.slice("jsonpath=".length))
      : undefined;
    this.output = new Output({
      format: template ? "jsonpath" : format as OutputFormat,
      ...(template ? { jsonpath: template } : {}),
      noHeaders: this.options.headers === false,
    });
    const names: string[] = [];
    for (let c: Command | null = command; c?.parent; c = c.parent) names.unshift(c.name());
    this.commandName = names.join(" ");
  }

  /**
   * The saved context in use (`--context`, `SMCTL_CONTEXT`, or the config
   * file's current one), read once; undefined without one.
   */
  savedContext(): SavedContext | undefined {
    if (this.#saved === undefined) {
      const named = this.#given("context") ? this.options.context : undefined;
      const path = configPath({
        SMCTL_CONFIG: Deno.env.get("SMCTL_CONFIG"),
        XDG_CONFIG_HOME: Deno.env.get("XDG_CONFIG_HOME"),
        HOME: Deno.env.get("HOME"),
      });
      this.#saved = { context: selectContext(readConfig(path), named || undefined) };
    }
    return this.#saved.context;
  }

  /** Whether a flag came from the command line or the environment (not a default). */
  #given(key: string): boolean {
    const source = this.#root.getOptionValueSource(key);
    return source === "cli" || source === "env";
  }

  /** The namespace from `--namespace`, `SMCTL_NAMESPACE` or the context; a usage error without one. */
  namespace(): string {
    const namespace = (this.options.namespace?.trim() || this.savedContext()?.namespace)?.trim();
    if (!namespace) {
      throw new UsageError(
        `${this.commandName} needs a namespace: pass --namespace NAME (-n NAME), set SMCTL_NAMESPACE or a context's namespace`,
      );
    }
    return namespace;
  }

  /** The connection, opened on first use. */
  get connection(): Connection {
    this.#connection ??= new Connection({
      addresses: this.endpoints(),
      timeoutMs: this.options.timeout,
      tls: this.tlsOptions(),
      onFailOver: (from, to, reason) =>
        this.output.warn(`${from} cannot be reached (${reason}); trying ${to}`),
    });
    return this.#connection;
  }

  /**
   * The instances to call, in order. A flag on the command line beats the
   * environment, which beats the saved context, which beats the default
   * (`--address`'s). `--endpoints` (or `SMCTL_ENDPOINTS`) with addresses
   * beats `--address` of the same or a lower rank; both flags on the command
   * line is a usage error. An empty `--endpoints ""` (or `SMCTL_ENDPOINTS=`)
   * means "no list": the address, the context or the default applies.
   */
  endpoints(): string[] {
    const source = (key: string) => this.#root.getOptionValueSource(key);
    const list = this.options.endpoints?.trim();
    const listFlag = source("endpoints") === "env" ? "SMCTL_ENDPOINTS" : "--endpoints";
    const split = (text: string, flag: string) =>
      text.split(",").map((a) => a.trim()).filter((a) => a !== "").map((a) =>
        checkAddress(a, flag)
      );
    if (list && source("endpoints") === "cli" && source("address") === "cli") {
      throw new UsageError("give --address or --endpoints, not both");
    }
    if (list && !(source("endpoints") === "env" && source("address") === "cli")) {
      const addresses = split(list, listFlag);
      if (addresses.length === 0) {
        throw new UsageError(`${listFlag} has no host:port; expected host:port,...`);
      }
      return addresses;
    }
    if (this.#given("address")) return [checkAddress(this.options.address)];
    const saved = this.savedContext();
    if (saved?.endpoints && saved.endpoints.length > 0) {
      return saved.endpoints.map((a) => checkAddress(a, `context ${saved.name}'s endpoints`));
    }
    if (saved?.address) return [checkAddress(saved.address, `context ${saved.name}'s address`)];
    return [checkAddress(this.options.address)];
  }

  /** The `-o` format: `--output`, else `--json`, else a table. */
  #format(): string {
    const json = this.options.json === true && this.#envFlagOn("json", "SMCTL_JSON");
    const output = this.options.output;
    if (json && output !== undefined && output !== "json") {
      if (this.#root.getOptionValueSource("output") === "cli") {
        if (this.#root.getOptionValueSource("json") === "cli") {
          throw new UsageError(`--json and -o ${output} disagree; give one`);
        }
        return output; // -o on the command line beats SMCTL_JSON
      }
      return "json"; // --json on the command line beats SMCTL_OUTPUT
    }
    return json ? "json" : output ?? "table";
  }

  /** A boolean flag set from the environment is on unless its value is "", "0" or "false". */
  #envFlagOn(key: string, name: string): boolean {
    if (this.#root.getOptionValueSource(key) !== "env") return true;
    const value = Deno.env.get(name)?.trim().toLowerCase() ?? "";
    return !["", "0", "false"].includes(value);
  }

  /** The TLS flags and the token as client options. */
  tlsOptions(): ClientTlsOptions {
    const o = this.options;
    const saved = this.savedContext();
    const token = o.token ?? Deno.env.get("SM_TOKEN") ?? saved?.token ?? tokenFromFile(saved);
    const caFile = o.caFile ?? saved?.["ca-file"];
    const certFile = o.certFile ?? saved?.["cert-file"];
    const keyFile = o.keyFile ?? saved?.["key-file"];
    const serverName = o.serverName ?? saved?.["server-name"];
    const tls = this.#given("tls") ? o.tls && this.#envFlagOn("tls", "SMCTL_TLS") : saved?.tls;
    return {
      ...(tls ? { tls: true } : {}),
      ...(caFile ? { caFile } : {}),
      ...(certFile ? { certFile } : {}),
      ...(keyFile ? { keyFile } : {}),
      ...(serverName ? { serverName } : {}),
      ...(token ? { token } : {}),
    };
  }

  /** Closes the connection. */
  close(): void {
    this.#connection?.close();
  }
}

/** A context's `token-file`, read and trimmed. */
function tokenFromFile(saved: SavedContext | undefined): string | undefined {
  const path = saved?.["token-file"];
  if (!path) return undefined;
  try {
    return Deno.readTextFileSync(path).trim() || undefined;
  } catch (error) {
    throw new UsageError(
      `context ${saved.name}: cannot read its token-file ${path}: ${(error as Error).message}`,
    );
  }
}

/**
 * Runs a command's body with a fresh {@linkcode Context} and closes its
 * connection afterwards, whatever happens.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { Command } from "commander";
 * import { runCommand } from "./context.ts";
 *
 * const program = new Command("smctl").option("-n, --namespace <name>").exitOverride();
 * program.command("list").action((_opts, command: Command) =>
 *   runCommand(command, async (ctx) => {
 *     ctx.output.line(ctx.namespace()); // a UsageError: no --namespace was given
 *   })
 * );
 * await assert.rejects(
 *   program.parseAsync(["list"], { from: "user" }),
 *   /list needs a namespace: pass --namespace NAME/,
 * );
 * ```
 */
export async function runCommand(
  command: Command,
  body: (ctx: Context) => Promise<void>,
): Promise<void> {
  const ctx = new Context(command);
  try {
    await body(ctx);
  } finally {
    ctx.close();
  }
}
