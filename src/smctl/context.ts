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
import { Output } from "./output.ts";

/** The global flags as commander parses them. */
export interface GlobalOptions {
  /** `--address`. */
  readonly address: string;
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

  /** Builds the context of `command` from its (and its parents') options. */
  constructor(command: Command) {
    this.options = command.optsWithGlobals<GlobalOptions & Record<string, unknown>>();
    this.output = new Output({ json: this.options.json ?? false });
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
      address: this.options.address,
      timeoutMs: this.options.timeout,
      tls: this.tlsOptions(),
    });
    return this.#connection;
  }

  /** The TLS flags and the token as client options. */
  tlsOptions(): ClientTlsOptions {
    const o = this.options;
    return {
      ...(o.tls ? { tls: true } : {}),
      ...(o.caFile ? { caFile: o.caFile } : {}),
      ...(o.certFile ? { certFile: o.certFile } : {}),
      ...(o.keyFile ? { keyFile: o.keyFile } : {}),
      ...(o.serverName ? { serverName: o.serverName } : {}),
      ...(o.token ? { token: o.token } : {}),
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
