/**
 * `smctl config ...`: the saved contexts of smctl's config file (see
 * `config_file.ts`): list them, show and switch the current one.
 *
 * @module
 */
import type { Command } from "commander";
import { type Context, runCommand } from "./context.ts";
import { configPath, readConfig, selectContext, writeConfig } from "./config_file.ts";
import { SmctlError } from "./errors.ts";
import { ExitCode } from "./exit_codes.ts";
import { renderTable } from "./table.ts";

/**
 * Adds the `config` command group to `program`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { Command } from "commander";
 * import { registerConfigCommands } from "./config_commands.ts";
 *
 * const program = new Command("smctl");
 * registerConfigCommands(program);
 * assert.deepEqual(program.commands[0]!.commands.map((c) => c.name()), [
 *   "get-contexts",
 *   "current-context",
 *   "use-context",
 * ]);
 * ```
 */
export function registerConfigCommands(program: Command): void {
  const config = program.command("config").description(
    "saved contexts: clusters with their endpoints, credentials and default namespace",
  ).addHelpText(
    "after",
    `
The file is $SMCTL_CONFIG, else $XDG_CONFIG_HOME/smctl/config.yaml, else
~/.config/smctl/config.yaml:

  current-context: prod
  contexts:
    - name: prod
      endpoints: [sm-1.prod:7943, sm-2.prod:7943]
      namespace: orders
      token-file: /home/me/.config/smctl/prod.token
      ca-file: /etc/sm/ca.pem
    - name: local
      address: 127.0.0.1:7943

Keys of a context: endpoints, address, namespace, token, token-file, tls,
ca-file, cert-file, key-file, server-name. A flag on the command line beats its
SMCTL_* variable, which beats the context.

Examples:
  $ smctl config get-contexts
  $ smctl config use-context prod
  $ smctl --context local executor list -n orders`,
  );

  config.command("get-contexts").description("list the saved contexts; * marks the current one")
    .addHelpText("after", "\nExample:\n  $ smctl config get-contexts -o json")
    .action((_opts: unknown, command: Command) => runCommand(command, getContexts));

  config.command("current-context").description("print the name of the current context")
    .addHelpText("after", "\nExample:\n  $ smctl config current-context")
    .action((_opts: unknown, command: Command) => runCommand(command, currentContext));

  config.command("use-context").description("make a saved context the current one")
    .argument("<name>", "context name")
    .addHelpText("after", "\nExample:\n  $ smctl config use-context prod")
    .action((name: string, _opts: unknown, command: Command) =>
      runCommand(command, (ctx) => useContext(ctx, name))
    );
}

function path(): string {
  return configPath({
    SMCTL_CONFIG: Deno.env.get("SMCTL_CONFIG"),
    XDG_CONFIG_HOME: Deno.env.get("XDG_CONFIG_HOME"),
    HOME: Deno.env.get("HOME"),
  });
}

function getContexts(ctx: Context): Promise<void> {
  const file = path();
  const config = readConfig(file);
  const current = ctx.savedContext()?.name;
  const contexts = config.contexts.map((c) => ({
    name: c.name,
    current: c.name === current,
    endpoints: c.endpoints ?? (c.address ? [c.address] : []),
    namespace: c.namespace ?? null,
    auth: c["token-file"]
      ? "token-file"
      : c.token
      ? "token"
      : c["cert-file"]
      ? "certificate"
      : "none",
  }));
  ctx.output.result(
    { config: file, currentContext: current ?? null, contexts },
    () =>
      contexts.length === 0 ? `No contexts in ${file}.` : renderTable(
        [
          { header: "CURRENT" },
          { header: "NAME" },
          { header: "ENDPOINTS" },
          { header: "NAMESPACE" },
          { header: "AUTH" },
        ],
        contexts.map((c) => [
          c.current ? "*" : "",
          c.name,
          c.endpoints.join(",") || "-",
          c.namespace ?? "-",
          c.auth,
        ]),
      ),
  );
  return Promise.resolve();
}

function currentContext(ctx: Context): Promise<void> {
  const current = ctx.savedContext();
  if (current === undefined) {
    throw new SmctlError(`no current context (in ${path()})`, ExitCode.NOT_FOUND);
  }
  ctx.output.result({ currentContext: current.name }, () => current.name);
  return Promise.resolve();
}

function useContext(ctx: Context, name: string): Promise<void> {
  const file = path();
  const config = readConfig(file);
  selectContext(config, name); // a usage error naming the known ones
  writeConfig(file, { ...config, "current-context": name });
  ctx.output.result(
    { currentContext: name, config: file },
    () => `Switched to context ${JSON.stringify(name)} (${file}).`,
  );
  return Promise.resolve();
}
