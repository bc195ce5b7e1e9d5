/**
 * `smctl __complete KIND` (hidden): the names the completion scripts offer,
 * one a line: `namespaces`, `executors` (of the namespace in use) or
 * `contexts`. It never fails loudly: any error prints nothing and exits 0,
 * so a shell's Tab never shows a message.
 *
 * @module
 */
import type { Command } from "commander";
import { type Context, runCommand } from "./context.ts";
import { configPath, readConfig } from "./config_file.ts";

/** The kinds of names `__complete` knows. */
export const NAME_KINDS = ["namespaces", "executors", "contexts"] as const;

/**
 * Adds the hidden `__complete` command to `program`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { Command } from "commander";
 * import { registerCompleteNames } from "./complete_names.ts";
 *
 * const program = new Command("smctl");
 * registerCompleteNames(program);
 * assert.equal(program.commands[0]!.name(), "__complete");
 * ```
 */
export function registerCompleteNames(program: Command): void {
  program.command("__complete", { hidden: true })
    .description("print names for shell completion")
    .argument("<kind>", NAME_KINDS.join(", "))
    .action((kind: string, _opts: unknown, command: Command) =>
      runCommand(command, async (ctx) => {
        try {
          for (const name of await names(ctx, kind)) ctx.output.write(`${name}\n`);
        } catch { /* quiet: completion offers nothing */ }
      })
    );
}

async function names(ctx: Context, kind: string): Promise<string[]> {
  switch (kind) {
    case "namespaces": {
      const { namespaces } = await ctx.connection.call("listNamespaces", {});
      return namespaces.map((n) => n.name);
    }
    case "executors": {
      const namespace = ctx.namespace();
      const state = await ctx.connection.call("getNamespaceState", { namespace });
      return state.executors.map((e) => e.executorId);
    }
    case "contexts":
      return readConfig(configPath({
        SMCTL_CONFIG: Deno.env.get("SMCTL_CONFIG"),
        XDG_CONFIG_HOME: Deno.env.get("XDG_CONFIG_HOME"),
        HOME: Deno.env.get("HOME"),
      })).contexts.map((c) => c.name);
    default:
      return [];
  }
}
