/**
 * `smctl leader list`: which instance leads each namespace, and since when.
 *
 * @module
 */
import type { Command } from "commander";
import { type Context, runCommand } from "./context.ts";
import { listSelectorOption, selectRows } from "./selector.ts";
import { leaderTable } from "./leader_format.ts";
import { leaderModel } from "./model.ts";

/**
 * Adds the `leader` command group to `program`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { Command } from "commander";
 * import { registerLeaderCommands } from "./leader.ts";
 *
 * const program = new Command("smctl");
 * registerLeaderCommands(program);
 * const group = program.commands[0]!;
 * assert.equal(group.name(), "leader");
 * assert.deepEqual(group.commands.map((c) => c.name()), ["list"]);
 * ```
 */
export function registerLeaderCommands(program: Command): void {
  const leader = program.command("leader").description("see which instance leads each namespace")
    .addHelpText(
      "after",
      `
Example:
  $ smctl leader list`,
    );
  leader.command("list").description(
    "list the leading instance of every namespace, its term, and since when (ListLeaders)",
  )
    .addHelpText(
      "after",
      `
A namespace without a leader shows "none" (no instance has won its election
yet). Terms grow with every change of leader.

Example:
  $ smctl leader list
  $ smctl leader list --json | jq '.leaders[] | select(.instanceId == null)'`,
    )
    .addOption(listSelectorOption("fields namespace and instance"))
    .action((opts: { selector?: string[] }, command: Command) =>
      runCommand(command, (ctx) => list(ctx, opts.selector))
    );
}

async function list(ctx: Context, selector?: readonly string[]): Promise<void> {
  const { leaders } = await ctx.connection.call("listLeaders", {});
  const models = selectRows(
    leaders.map(leaderModel),
    selector,
    (l) => ({ namespace: l.namespace, instance: l.instanceId ?? "none" }),
  );
  ctx.output.result(
    { leaders: models },
    () => leaderTable(models, Date.now(), ctx.output.palette),
  );
}
