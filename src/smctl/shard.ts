/**
 * `smctl shard ...`: who owns a shard, its statistics, and shard drains.
 *
 * @module
 */
import type { Command } from "commander";
import { type Context, runCommand } from "./context.ts";
import { ExitCode } from "./exit_codes.ts";
import { SmctlError } from "./errors.ts";
import { drainedShardModel, type ShardModel, shardModel } from "./model.ts";
import { registerShardMove } from "./placement_commands.ts";
import { safeWrite } from "./safe_write.ts";
import { registerShardList } from "./shard_list.ts";
import {
  drainedShardsText,
  shardChangeText,
  shardInspectText,
  shardOwnerText,
} from "./shard_format.ts";

/**
 * Adds the `shard` command group to `program`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { Command } from "commander";
 * import { registerShardCommands } from "./shard.ts";
 *
 * const program = new Command("smctl");
 * registerShardCommands(program);
 * const group = program.commands[0]!;
 * assert.equal(group.name(), "shard");
 * assert.deepEqual(group.commands.map((c) => c.name()), ["list", "owner", "inspect", "drain", "undrain", "drained", "move"]);
 * ```
 */
export function registerShardCommands(program: Command): void {
  const shard = program.command("shard").description("find, inspect, drain and undrain shards")
    .addHelpText(
      "after",
      `
Examples:
  $ smctl -n orders shard list --owner worker-7
  $ smctl -n orders shard owner 42
  $ smctl -n orders shard drain 42 43 --json`,
    );

  registerShardList(shard);

  shard.command("owner").description("print the executor that owns a shard (GetShardOwner)")
    .argument("<key>", "shard key")
    .addHelpText(
      "after",
      `
In an ephemeral namespace, asking for an unknown key creates the shard; use
"shard inspect" to look without side effects. A drained shard exits with code 5.

Example:
  $ smctl -n orders shard owner 42`,
    )
    .action((key: string, _opts: unknown, command: Command) =>
      runCommand(command, (ctx) => owner(ctx, key))
    );

  shard.command("inspect").description(
    "print a shard's owner, load, status, fencing revision and when it moved (InspectShard)",
  )
    .argument("<key>", "shard key")
    .addHelpText(
      "after",
      `
Never creates a shard. Unknown shards exit with code 3. A drained shard is
shown with its drain (no owner) and exits 0.

Example:
  $ smctl -n orders shard inspect 42 --json`,
    )
    .action((key: string, _opts: unknown, command: Command) =>
      runCommand(command, (ctx) => inspect(ctx, key))
    );

  shard.command("drain").description(
    "mark shards drained: they lose their owner and get none until undrained",
  )
    .argument("<keys...>", "shard keys")
    .addHelpText(
      "after",
      `
The mark is stored in etcd and survives restarts. GetShardOwner answers
FAILED_PRECONDITION for a drained shard.

Example:
  $ smctl -n orders shard drain 42 43`,
    )
    .action((keys: string[], _opts: unknown, command: Command) =>
      runCommand(command, (ctx) => change(ctx, "drainShards", keys))
    );

  shard.command("undrain").description("clear the drained mark so the shards are assigned again")
    .argument("<keys...>", "shard keys")
    .addHelpText(
      "after",
      `
Example:
  $ smctl -n orders shard undrain 42 43`,
    )
    .action((keys: string[], _opts: unknown, command: Command) =>
      runCommand(command, (ctx) => change(ctx, "undrainShards", keys))
    );

  shard.command("drained").description("list the drained shards of a namespace")
    .addHelpText(
      "after",
      `
Example:
  $ smctl -n orders shard drained --json`,
    )
    .action((_opts: unknown, command: Command) => runCommand(command, drained));

  registerShardMove(shard);
}

async function owner(ctx: Context, shardKey: string): Promise<void> {
  const namespace = ctx.namespace();
  const answer = await ctx.connection.call("getShardOwner", { namespace, shardKey });
  const result = { namespace, shardKey, owner: answer.owner, metadata: { ...answer.metadata } };
  ctx.output.result(result, () => shardOwnerText(result, ctx.output.palette));
}

async function inspect(ctx: Context, shardKey: string): Promise<void> {
  const namespace = ctx.namespace();
  let shard: ShardModel;
  try {
    shard = shardModel(
      shardKey,
      await ctx.connection.call("inspectShard", { namespace, shardKey }),
    );
  } catch (error) {
    if (!(error instanceof SmctlError) || error.exitCode !== ExitCode.FAILED_PRECONDITION) {
      throw error;
    }
    // InspectShard refuses a drained shard (as GetShardOwner does); look the
    // drain up so the operator sees the shard and why it has no owner.
    const drained = await ctx.connection.call("getDrainedShards", { namespace });
    if (!drained.shardKeys.includes(shardKey)) throw error;
    const quarantined = (drained.quarantinedShardKeys ?? []).includes(shardKey);
    shard = drainedShardModel(namespace, shardKey, quarantined);
  }
  ctx.output.result(shard, () => shardInspectText(shard, Date.now(), ctx.output.palette));
}

async function change(
  ctx: Context,
  method: "drainShards" | "undrainShards",
  shardKeys: string[],
): Promise<void> {
  const namespace = ctx.namespace();
  if (method === "drainShards") {
    const { drainedShardKeys } = await safeWrite(
      ctx,
      method,
      { namespace, shardKeys },
      `smctl -n ${namespace} shard drained`,
    );
    ctx.output.result(
      { namespace, drainedShardKeys },
      () => shardChangeText("Drained", namespace, drainedShardKeys),
    );
  } else {
    const { undrainedShardKeys } = await safeWrite(
      ctx,
      method,
      { namespace, shardKeys },
      `smctl -n ${namespace} shard drained`,
    );
    const notDrained = shardKeys.filter((k) => !undrainedShardKeys.includes(k));
    ctx.output.result({ namespace, undrainedShardKeys, notDrainedShardKeys: notDrained }, () => {
      const text = shardChangeText("Undrained", namespace, undrainedShardKeys);
      return notDrained.length === 0 ? text : `${text}\nNot drained: ${notDrained.join(", ")}`;
    });
  }
}

async function drained(ctx: Context): Promise<void> {
  const namespace = ctx.namespace();
  const answer = await ctx.connection.call("getDrainedShards", { namespace });
  const { shardKeys } = answer;
  const quarantinedShardKeys = answer.quarantinedShardKeys ?? [];
  ctx.output.result(
    { namespace, shardKeys, quarantinedShardKeys },
    () => drainedShardsText(namespace, shardKeys, ctx.output.palette, quarantinedShardKeys),
  );
}
