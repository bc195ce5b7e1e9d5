/**
 * `smctl namespace create|update|delete|get`: namespaces as data. A
 * definition is one entry of `shardDistribution.namespaces` as YAML (or
 * JSON); `get -o yaml` prints one that `create -f` accepts back.
 *
 * @module
 */
import type { Command } from "commander";
import { confirmByRetyping, readLine } from "./confirm.ts";
import { type Context, runCommand } from "./context.ts";
import { SmctlError, UsageError } from "./errors.ts";
import { ExitCode } from "./exit_codes.ts";

/** Reads the definition file (`-` for stdin). */
async function readDefinition(file: string | undefined, command: string): Promise<string> {
  if (!file) {
    throw new UsageError(`${command} needs a definition: pass -f FILE (or -f - for stdin)`);
  }
  if (file === "-") return await new Response(Deno.stdin.readable).text();
  try {
    return await Deno.readTextFile(file);
  } catch (error) {
    throw new UsageError(`cannot read ${file}: ${(error as Error).message}`);
  }
}

/** The `name:` of a definition, for the request's namespace field (the server checks it). */
function nameOf(text: string): string {
  const match = /^name:\s*["']?([A-Za-z0-9][A-Za-z0-9._-]*)["']?\s*$/m.exec(text) ??
    /"name"\s*:\s*"([^"]+)"/.exec(text);
  return match?.[1] ?? "";
}

/**
 * Adds `create`, `update`, `delete` and `get` to the `namespace` group.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { Command } from "commander";
 * import { registerNamespaceDefinitionCommands } from "./namespace_definitions.ts";
 *
 * const group = new Command("namespace");
 * registerNamespaceDefinitionCommands(group);
 * assert.deepEqual(group.commands.map((c) => c.name()), ["create", "update", "delete", "get"]);
 * ```
 */
export function registerNamespaceDefinitionCommands(namespace: Command): void {
  namespace.command("create").description("create a namespace from a definition (CreateNamespace)")
    .option("-f, --file <file>", "the definition: YAML or JSON, one namespace entry; - for stdin")
    .addHelpText(
      "after",
      `
The definition has the fields of an entry of shardDistribution.namespaces in the
configuration file, and is checked the same way. Every instance starts the
namespace within a second.

Example:
  $ smctl namespace create -f orders.yaml`,
    )
    .action((opts: { file?: string }, command: Command) =>
      runCommand(command, async (ctx) => {
        const text = await readDefinition(opts.file, "namespace create");
        const { definition } = await ctx.connection.call("createNamespace", {
          namespace: nameOf(text),
          definitionYaml: text,
        });
        const name = definition?.namespace ?? nameOf(text);
        ctx.output.result(
          { namespace: name, revision: Number(definition?.revision ?? 0) },
          () => `Created namespace ${JSON.stringify(name)}.`,
        );
      })
    );

  namespace.command("update").description("change a namespace created through the API")
    .option("-f, --file <file>", "the new definition; - for stdin")
    .option("--force", "allow a change of shardNum (removed shards are drained first)")
    .addHelpText(
      "after",
      `
Load balancer, move budget, ownership lease and the other policy fields apply
at the namespace's next pass. Changing ownership (available/exclusive), type,
mode or replication is refused; shardNum only with --force. Namespaces from the
configuration file are read-only here: edit the file and send SIGHUP.

Example:
  $ smctl namespace update -f orders.yaml`,
    )
    .action((opts: { file?: string; force?: boolean }, command: Command) =>
      runCommand(command, async (ctx) => {
        const text = await readDefinition(opts.file, "namespace update");
        const name = nameOf(text);
        const { changes } = await ctx.connection.call("updateNamespace", {
          namespace: name,
          definitionYaml: text,
          force: opts.force ?? false,
        });
        ctx.output.result(
          { namespace: name, changes },
          () =>
            changes.length === 0
              ? `Namespace ${JSON.stringify(name)} unchanged.`
              : [`Updated namespace ${JSON.stringify(name)}:`, ...changes.map((c) => `  ${c}`)]
                .join("\n"),
        );
      })
    );

  namespace.command("delete <name>").description(
    "drain a namespace created through the API, then delete it and its stored keys",
  )
    .option("-y, --yes", "skip the confirmation (needed when stdin is not a terminal)")
    .addHelpText(
      "after",
      `
Every shard is drained first; once none has an owner, every instance stops the
namespace and its keys are removed. Executors heartbeating into it then get
NOT_FOUND. If the drain does not finish (30 s), nothing is deleted and the
shards still owned are listed (exit code 1).

Example:
  $ smctl namespace delete orders --yes`,
    )
    .action((name: string, opts: { yes?: boolean }, command: Command) =>
      runCommand(command, (ctx) => deleteNamespace(ctx, name, opts.yes ?? false))
    );

  namespace.command("get <name>").description("print a namespace's definition (YAML)")
    .addHelpText(
      "after",
      `
Prints the definition as YAML (also with -o table or wide); with -o yaml exactly
the definition, which create -f accepts back; with -o json a document with its
source (file or api) and store revision.

Example:
  $ smctl namespace get orders -o yaml > orders.yaml`,
    )
    .action((name: string, _opts: unknown, command: Command) =>
      runCommand(command, async (ctx) => {
        const { definition } = await ctx.connection.call("getNamespaceDefinition", {
          namespace: name,
        });
        if (!definition) throw new SmctlError("the server sent no definition", ExitCode.ERROR);
        if (ctx.output.format !== "json") {
          ctx.output.line(definition.definitionYaml.trimEnd());
          return;
        }
        ctx.output.result({
          namespace: definition.namespace,
          source: definition.source,
          revision: Number(definition.revision),
          definition: definition.definitionYaml,
        }, () => definition.definitionYaml);
      })
    );
}

async function deleteNamespace(ctx: Context, name: string, yes: boolean): Promise<void> {
  if (!yes) {
    await confirmByRetyping({
      expected: name,
      prompt: `This drains every shard of namespace ${
        JSON.stringify(name)
      }, then deletes it and its stored keys.\nType the namespace name to confirm: `,
      stdinIsTerminal: Deno.stdin.isTerminal(),
      readAnswer: () => readLine(Deno.stdin.readable),
      write: (text) => ctx.output.writeErr(text),
      action: `delete namespace ${JSON.stringify(name)}`,
    });
  }
  const { undrainedShardKeys, deletedKeys } = await ctx.connection.call("deleteNamespace", {
    namespace: name,
  });
  if (undrainedShardKeys.length > 0) {
    throw new SmctlError(
      `namespace ${JSON.stringify(name)} was not deleted: shards ${
        undrainedShardKeys.join(", ")
      } still have owners after the drain (they stay drained); retry once their executors released them`,
      ExitCode.ERROR,
    );
  }
  ctx.output.result(
    { namespace: name, deletedKeys: Number(deletedKeys) },
    () => `Deleted namespace ${JSON.stringify(name)} (${deletedKeys} keys removed).`,
  );
}
