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

/** The global flags as commander parses them. */
export interface GlobalOptions {
  /** `--address`. */
  readonly address: string;
  /** `--endpoints`, comma-separated. */
  readonly endpoints?: string;
  /** `-o`/`--output`. */
  readonly output?: OutputFormat;
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

  /** Builds the context of `command` from its (and its parents') options. */
  constructor(command: Command) {
    this.options = command.optsWithGlobals<GlobalOptions & Record<string, unknown>>();
    let root = command;
    while (root.parent) root = root.parent;
    this.#root = root;
    this.output = new Output({ format: this.#format() });
    const names: string[] = [];
    for (let c: Command | null = command; c?.parent; c = c.parent) names.unshift(c.name());
    this.commandName = names.join(" ");
  }

  /** The namespace from `--namespace` or `SMCTL_NAMESPACE`; a usage error without one. */
  namespace(): string {
    const namespace = this.options.namespace?.trim();
    if (!namespace) {
      throw new UsageError(
        `${this.commandName} needs a namespace: pass --namespace NAME (-n NAME) or set SMCTL_NAMESPACE`,
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
    });
    return this.#connection;
  }

  /**
   * The instances to call, in order: `--endpoints` (or `SMCTL_ENDPOINTS`) when
   * given, else `--address`. A flag on the command line beats the environment;
   * both flags on the command line is a usage error.
   */
  endpoints(): string[] {
    const source = (key: string) => this.#root.getOptionValueSource(key);
    const list = this.options.endpoints;
    if (list !== undefined && source("endpoints") === "cli" && source("address") === "cli") {
      throw new UsageError("give --address or --endpoints, not both");
    }
    const useList = list !== undefined &&
      !(source("endpoints") === "env" && source("address") === "cli");
    if (!useList) return [checkAddress(this.options.address)];
    const flag = source("endpoints") === "env" ? "SMCTL_ENDPOINTS" : "--endpoints";
    const addresses = list.split(",").map((a) => a.trim()).filter((a) => a !== "");
    if (addresses.length === 0) throw new UsageError(`${flag} is empty; expected host:port,...`);
    return addresses.map((a) => checkAddress(a, flag));
  }

  /** The `-o` format: `--output`, else `--json`, else a table. */
  #format(): OutputFormat {
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
    const token = o.token ?? Deno.env.get("SM_TOKEN");
    return {
      ...(o.tls && this.#envFlagOn("tls", "SMCTL_TLS") ? { tls: true } : {}),
      ...(o.caFile ? { caFile: o.caFile } : {}),
      ...(o.certFile ? { certFile: o.certFile } : {}),
      ...(o.keyFile ? { keyFile: o.keyFile } : {}),
      ...(o.serverName ? { serverName: o.serverName } : {}),
      ...(token ? { token } : {}),
    };
  }

  /** Closes the connection. */
  close(): void {
    this.#connection?.close();
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
