/**
 * `smctl shard move` and `smctl namespace blast-radius`: the placement
 * commands of cells namespaces and of every namespace's blast radius.
 *
 * @module
 */
import { plannedMovesText } from "./drain_format.ts";
import { safeWrite } from "./safe_write.ts";
import type { Command } from "commander";
import { type Context, runCommand } from "./context.ts";
import { type BlastRadiusModel, blastRadiusText, moveText } from "./placement_format.ts";
import type { GetBlastRadiusResponse__Output } from "../wire/proto.ts";

/**
 * Adds `move` to the `shard` command group.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { Command } from "commander";
 * import { registerShardMove } from "./placement_commands.ts";
 *
 * const shard = new Command("smctl").command("shard");
 * registerShardMove(shard);
 * assert.deepEqual(shard.commands.map((c) => c.name()), ["move"]);
 * ```
 */
export function registerShardMove(shard: Command): void {
  shard.command("move").description(
    "move tenants of a cells namespace (mode: cells) to another cell (MoveShards)",
  )
    .argument("<keys...>", "tenants (shard keys) to move")
    .requiredOption("--to <cell>", "the cell (executor id) to move them to")
    .option("--dry-run", "print the tenants that would move and from where; move nothing")
    .addHelpText(
      "after",
      `
Tenants of a cells namespace never move by themselves: this is how an operator
moves them. The target must be a known, ACTIVE, live, undrained cell and not
one dedicated to pinned tenants; a tenant pinned in the config moves only to
its pin. Only the namespace's leader commits moves; any instance takes the
call and forwards it to the leader (a TLS-enabled instance answers code 5
naming the leader instead).

Exit codes: 3 unknown tenant or cell, 5 refused (see the message).

Example:
  $ smctl -n customers shard move acme globex --to cell-3`,
    )
    .action((keys: string[], opts: { to: string; dryRun?: boolean }, command: Command) =>
      runCommand(command, (ctx) => move(ctx, keys, opts.to, opts.dryRun === true))
    );
}

/**
 * Adds `blast-radius` to the `namespace` command group.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { Command } from "commander";
 * import { registerBlastRadius } from "./placement_commands.ts";
 *
 * const namespace = new Command("smctl").command("namespace");
 * registerBlastRadius(namespace);
 * assert.deepEqual(namespace.commands.map((c) => c.name()), ["blast-radius"]);
 * ```
 */
export function registerBlastRadius(namespace: Command): void {
  namespace.command("blast-radius").description(
    "share of shards lost if any one or any two executors fail (GetBlastRadius)",
  )
    .addHelpText(
      "after",
      `
Measures the current assignment. A shard is lost when every live owner fails,
degraded when one does (the same with one owner per shard). Shards whose owner
is stale or gone count as without a live owner.

Example:
  $ smctl -n customers namespace blast-radius --json`,
    )
    .action((_opts: unknown, command: Command) => runCommand(command, blastRadius));
}

async function move(ctx: Context, shardKeys: string[], to: string, dryRun: boolean): Promise<void> {
  const namespace = ctx.namespace();
  const answer = await safeWrite(ctx, "moveShards", {
    namespace,
    shardKeys,
    toExecutorId: to,
    dryRun,
  }, `smctl -n ${namespace} shard owner ${shardKeys[0] ?? ""}`);
  if (answer.dryRun) {
    const moves = answer.plannedMoves.map((m) => ({
      shardKey: m.shardKey,
      from: m.fromExecutorId,
      to: m.toExecutorId || null,
    }));
    ctx.output.result(
      { namespace, dryRun: true, toExecutorId: to, plannedMoves: moves },
      () => plannedMovesText(`Dry run: moving to ${to} would move`, moves),
    );
    return;
  }
  const result = {
    namespace,
    toExecutorId: answer.toExecutorId,
    movedShardKeys: answer.movedShardKeys,
    unchangedShardKeys: answer.unchangedShardKeys,
  };
  ctx.output.result(result, () => moveText(result, ctx.output.palette));
}

async function blastRadius(ctx: Context): Promise<void> {
  const namespace = ctx.namespace();
  const model = blastRadiusModel(await ctx.connection.call("getBlastRadius", { namespace }));
  ctx.output.result(model, () => blastRadiusText(model, ctx.output.palette));
}

/**
 * The --json model of a GetBlastRadius answer: counts as numbers, absent ids as null.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { blastRadiusModel } from "./placement_commands.ts";
 *
 * const model = blastRadiusModel({
 *   namespace: "ns", shards: "8", executors: "4", unownedShards: "0", fewestOwners: 1,
 *   singleMaxLost: 0.25, singleMeanLost: 0.25, singleMaxDegraded: 0, singleMeanDegraded: 0,
 *   worstExecutorId: "", pairMaxLost: 0.5, pairMeanLost: 0.5, worstPairExecutorIds: ["a", "b"],
 *   worstLost: 0.5, maxOverlap: 0, shardsOverBound: "0", ownerSetCombinations: "0",
 * });
 * assert.equal(model.shards, 8);
 * assert.equal(model.single.worstExecutor, null);
 * assert.deepEqual(model.pair.worstPair, ["a", "b"]);
 * ```
 */
export function blastRadiusModel(wire: GetBlastRadiusResponse__Output): BlastRadiusModel {
  return {
    namespace: wire.namespace,
    shards: Number(wire.shards),
    executors: Number(wire.executors),
    unownedShards: Number(wire.unownedShards),
    fewestOwners: wire.fewestOwners,
    single: {
      maxLost: wire.singleMaxLost,
      meanLost: wire.singleMeanLost,
      maxDegraded: wire.singleMaxDegraded,
      meanDegraded: wire.singleMeanDegraded,
      worstExecutor: wire.worstExecutorId === "" ? null : wire.worstExecutorId,
    },
    pair: {
      maxLost: wire.pairMaxLost,
      meanLost: wire.pairMeanLost,
      worstPair: wire.worstPairExecutorIds.length === 0 ? null : wire.worstPairExecutorIds,
    },
    worstLost: wire.worstLost,
  };
}
