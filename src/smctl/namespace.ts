/**
 * `smctl namespace ...`: list, describe, watch and force-reset namespaces;
 * create, update, delete and get definitions (`namespace_definitions.ts`).
 *
 * @module
 */
import { safeWrite } from "./safe_write.ts";
import type { Command } from "commander";
import { confirmByRetyping, readLine } from "./confirm.ts";
import { type Context, runCommand } from "./context.ts";
import { SmctlError } from "./errors.ts";
import { ExitCode } from "./exit_codes.ts";
import { drainModel, executorModel, leaderModel, namespaceModel } from "./model.ts";
import { namespaceDescription, namespaceTable, summarizeExecutors } from "./namespace_format.ts";
import { watchNamespace } from "./namespace_watch.ts";
import { registerBlastRadius } from "./placement_commands.ts";
import { registerNamespaceDefinitionCommands } from "./namespace_definitions.ts";
import { listSelectorOption, selectRows } from "./selector.ts";
import { registerNamespaceEvents } from "./namespace_events.ts";
import { registerNamespaceBrake } from "./namespace_brake.ts";
import { brakeModel } from "./brake_format.ts";

/**
 * Adds the `namespace` command group to `program`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { Command } from "commander";
 * import { registerNamespaceCommands } from "./namespace.ts";
 *
 * const program = new Command("smctl");
 * registerNamespaceCommands(program);
 * const group = program.commands[0]!;
 * assert.equal(group.name(), "namespace");
 * assert.deepEqual(group.commands.map((c) => c.name()), ["list", "describe", "watch", "force-reset", "blast-radius", "create", "update", "delete", "get", "events", "brake"]);
 * ```
 */
export function registerNamespaceCommands(program: Command): void {
  const namespace = program.command("namespace").alias("ns")
    .description(
      "list, describe, watch, reset, create, update, delete and get namespaces; lift brakes",
    )
    .addHelpText(
      "after",
      `
Examples:
  $ smctl namespace list
  $ smctl -n orders namespace describe
  $ smctl -n orders namespace watch`,
    );

  namespace.command("list").description("list the configured namespaces (ListNamespaces)")
    .addHelpText(
      "after",
      `
Example:
  $ smctl namespace list --json
  $ smctl namespace list -l type=fixed -o wide`,
    )
    .addOption(listSelectorOption("fields name, type and mode"))
    .action((opts: { selector?: string[] }, command: Command) =>
      runCommand(command, (ctx) => list(ctx, opts.selector))
    );

  namespace.command("describe").description(
    "show a namespace's configuration, leader, executors, executor drains and drained shards",
  )
    .addHelpText(
      "after",
      `
Example:
  $ smctl -n orders namespace describe`,
    )
    .action((_opts: unknown, command: Command) => runCommand(command, describe));

  namespace.command("watch").description(
    "live view of the executors, their status and shard counts (WatchNamespaceState)",
  )
    .addHelpText(
      "after",
      `
On a terminal the view is redrawn in place; with --json or when stdout is not a
terminal, one line is printed per update (JSON lines with --json). Ctrl-C exits
with code 0.

Example:
  $ smctl -n orders namespace watch
  $ smctl -n orders namespace watch --json | jq -c '.executors'`,
    )
    .action((_opts: unknown, command: Command) => runCommand(command, watchNamespace));

  namespace.command("force-reset").description(
    "delete all stored state of a namespace (executors, assignments, drains); for recovery",
  )
    .option("-y, --yes", "skip the confirmation (needed when stdin is not a terminal)")
    .addHelpText(
      "after",
      `
Destructive: executors re-register with their next heartbeat and every shard is
placed afresh, but shard drains and executor drains are gone. You are asked to
retype the namespace name unless --yes is given; without a terminal on stdin
and without --yes, smctl refuses (exit code 2).

Example:
  $ smctl -n orders namespace force-reset
  $ smctl -n orders namespace force-reset --yes --json`,
    )
    .action((opts: { yes?: boolean }, command: Command) =>
      runCommand(command, (ctx) => forceReset(ctx, opts.yes ?? false))
    );

  registerBlastRadius(namespace);
  registerNamespaceDefinitionCommands(namespace);
  registerNamespaceEvents(namespace);
  registerNamespaceBrake(namespace);
}

async function list(ctx: Context, selector?: readonly string[]): Promise<void> {
  const { namespaces } = await ctx.connection.call("listNamespaces", {});
  const models = selectRows(
    namespaces.map(namespaceModel),
    selector,
    (n) => ({ name: n.name, type: n.type, mode: n.mode }),
  );
  // -o wide adds each namespace's leader: one more call.
  const leaders = ctx.output.wide
    ? new Map(
      (await ctx.connection.call("listLeaders", {})).leaders.map(leaderModel).map((
        l,
      ) => [l.namespace, l.instanceId ?? "none"]),
    )
    : undefined;
  ctx.output.result(
    { namespaces: models },
    () => namespaceTable(models, ctx.output.palette, leaders),
  );
}

async function describe(ctx: Context): Promise<void> {
  const namespace = ctx.namespace();
  const api = ctx.connection;
  // The state call fails with NOT_FOUND for an unknown namespace; start it first.
  const [state, configs, drains, drained, leaders, brake] = await Promise.all([
    api.call("getNamespaceState", { namespace }),
    api.call("listNamespaces", {}),
    api.call("listExecutorDrains", { namespace }),
    api.call("getDrainedShards", { namespace }),
    api.call("listLeaders", {}),
    // A service from before GetBrake: describe without the brake.
    api.call("getBrake", { namespace }).then(brakeModel, () => undefined),
  ]);
  const config = configs.namespaces.find((n) => n.name === namespace);
  if (config === undefined) {
    throw new SmctlError(`namespace ${JSON.stringify(namespace)} not found`, ExitCode.NOT_FOUND);
  }
  const executors = state.executors.map(executorModel);
  const leader = leaders.leaders.find((l) => l.namespace === namespace);
  const description = {
    config: namespaceModel(config),
    leader: leader === undefined ? undefined : leaderModel(leader),
    executors,
    drains: drains.drains.map(drainModel),
    drainedShards: drained.shardKeys,
    shardMoves: shardMoves(state.shardMoves),
    ...(brake ? { brake } : {}),
  };
  ctx.output.result(
    {
      namespace: description.config,
      leader: description.leader ?? null,
      summary: summarizeExecutors(executors),
      executors,
      executorDrains: description.drains,
      drainedShards: description.drainedShards,
      shardMoves: description.shardMoves,
      ...(brake ? { brake } : {}),
    },
    () => namespaceDescription(description, Date.now(), ctx.output.palette),
  );
}

async function forceReset(ctx: Context, yes: boolean): Promise<void> {
  const namespace = ctx.namespace();
  if (!yes) {
    await confirmByRetyping({
      expected: namespace,
      prompt:
        `This deletes every stored key of namespace ${
          JSON.stringify(namespace)
        }: executors, assignments, shard drains and executor drains.\n` +
        `Type the namespace name to confirm: `,
      stdinIsTerminal: Deno.stdin.isTerminal(),
      readAnswer: () => readLine(Deno.stdin.readable),
      write: (text) => ctx.output.writeErr(text),
      action: `reset namespace ${JSON.stringify(namespace)}`,
    });
  }
  const { deletedKeys } = await safeWrite(
    ctx,
    "forceResetNamespace",
    { namespace },
    `smctl -n ${namespace} namespace describe`,
  );
  const count = Number(deletedKeys);
  ctx.output.result(
    { namespace, deletedKeys: count },
    () =>
      `Reset namespace ${JSON.stringify(namespace)}: deleted ${count} ${
        count === 1 ? "key" : "keys"
      }.`,
  );
}

/** The answer's move counts as numbers (int64 fields arrive as strings or numbers). */
function shardMoves(
  raw:
    | { placement?: unknown; balance?: unknown; drain?: unknown; loss?: unknown }
    | null
    | undefined,
): Record<"placement" | "balance" | "drain" | "loss", number> {
  return {
    placement: Number(raw?.placement ?? 0),
    balance: Number(raw?.balance ?? 0),
    drain: Number(raw?.drain ?? 0),
    loss: Number(raw?.loss ?? 0),
  };
}
