/**
 * `smctl shard list [--owner ID]`: every assigned shard of a namespace with
 * its owner, load and when it got that owner, then the shards the leader
 * quarantined as poison shards (no owner, reason `quarantined`); `--watch`
 * re-prints it when it changes.
 *
 * @module
 */
import type { Command } from "commander";
import { type Context, runCommand } from "./context.ts";
import { SmctlError } from "./errors.ts";
import { ExitCode } from "./exit_codes.ts";
import { showList } from "./list_watch.ts";
import { type ExecutorDetailModel, executorDetailModel } from "./model.ts";
import { renderTable } from "./table.ts";
import { shortTime } from "./time.ts";

/** One shard as listed. */
export interface ListedShard {
  /** Shard key. */
  readonly key: string;
  /** Its owner. */
  readonly owner: string;
  /** Load the owner reported for it. */
  readonly load: number;
  /** When it got this owner (ISO 8601), if known. */
  readonly assignedAt: string | null;
  /** Store revision of its assignment (the fencing token). */
  readonly assignedRevision: number;
}

/** A shard the leader quarantined (drained with a reason), as listed. */
export interface QuarantinedShard {
  /** Shard key. */
  readonly key: string;
  /** Why it has no owner: `quarantined` (a poison shard; `smctl shard undrain` releases it). */
  readonly reason: string;
}

/**
 * `keys` as listed quarantined shards, in key order (numeric keys by number).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { quarantinedRows } from "./shard_list.ts";
 *
 * assert.deepEqual(quarantinedRows(["10", "2"]), [
 *   { key: "2", reason: "quarantined" },
 *   { key: "10", reason: "quarantined" },
 * ]);
 * ```
 */
export function quarantinedRows(keys: readonly string[]): QuarantinedShard[] {
  const collator = new Intl.Collator("en", { numeric: true });
  return [...keys].sort(collator.compare).map((key) => ({ key, reason: "quarantined" }));
}

/**
 * The shards of `executors` (only `owner`'s when given), in key order
 * (numeric keys by number).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { shardRows } from "./shard_list.ts";
 *
 * const held = (key: string) => ({ key, load: 0, assignedRevision: 1, assignedAt: null });
 * const rows = shardRows([
 *   { id: "a", shards: [held("10"), held("2")] },
 *   { id: "b", shards: [held("1")] },
 * ]);
 * assert.deepEqual(rows.map((r) => `${r.key}@${r.owner}`), ["1@b", "2@a", "10@a"]);
 * assert.deepEqual(shardRows([{ id: "a", shards: [held("1")] }], "b"), []);
 * ```
 */
export function shardRows(
  executors: readonly Pick<ExecutorDetailModel, "id" | "shards">[],
  owner?: string,
): ListedShard[] {
  const collator = new Intl.Collator("en", { numeric: true });
  return executors.filter((e) => owner === undefined || e.id === owner).flatMap((e) =>
    e.shards.map((s) => ({
      key: s.key,
      owner: e.id,
      load: s.load,
      assignedAt: s.assignedAt,
      assignedRevision: s.assignedRevision,
    }))
  ).sort((x, y) => collator.compare(x.key, y.key));
}

/**
 * Adds `shard list` to the `shard` group.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { Command } from "commander";
 * import { registerShardList } from "./shard_list.ts";
 *
 * const shard = new Command("smctl").command("shard");
 * registerShardList(shard);
 * assert.equal(shard.commands[0]!.name(), "list");
 * ```
 */
export function registerShardList(shard: Command): void {
  shard.command("list").description(
    "list the assigned shards with owner, load and when they got it (--owner for one executor's), and the quarantined ones",
  )
    .option("--owner <id>", "only the shards this executor owns")
    .option("-w, --watch", "print the list again each time it changes (Ctrl-C to stop)")
    .addHelpText(
      "after",
      `
Shards the leader quarantined as poison shards are listed after the others,
with no owner and the reason "quarantined" (in -o json: "quarantined", a list
of {key, reason}; not with --owner). Release one with "shard undrain".
Other unassigned and drained shards are not listed (see "shard drained").
An --owner that is not registered exits 3.

Examples:
  $ smctl -n orders shard list
  $ smctl -n orders shard list --owner worker-7 -o jsonpath='{.shards[*].key}'
  $ smctl -n orders shard list --owner worker-7 --watch`,
    )
    .action((opts: { owner?: string; watch?: boolean }, command: Command) =>
      runCommand(command, (ctx) => list(ctx, opts.owner, opts.watch === true))
    );
}

async function list(ctx: Context, owner: string | undefined, watch: boolean): Promise<void> {
  const namespace = ctx.namespace();
  await showList(ctx, namespace, watch, async (signal) => {
    const state = await ctx.connection.call("getNamespaceState", { namespace }, signal);
    const executors = state.executors.map(executorDetailModel);
    if (owner !== undefined && !executors.some((e) => e.id === owner)) {
      throw new SmctlError(
        `executor ${JSON.stringify(owner)} is not registered in namespace ${
          JSON.stringify(namespace)
        }`,
        ExitCode.NOT_FOUND,
      );
    }
    const shards = shardRows(executors, owner);
    const quarantined = owner === undefined
      ? quarantinedRows(
        (await ctx.connection.call("getDrainedShards", { namespace }, signal))
          .quarantinedShardKeys ?? [],
      )
      : [];
    const palette = ctx.output.palette;
    return {
      value: {
        namespace,
        ...(owner === undefined ? {} : { owner }),
        shards,
        ...(owner === undefined ? { quarantined } : {}),
      },
      human: () =>
        shards.length + quarantined.length === 0 ? "No shards." : renderTable(
          [
            { header: "SHARD" },
            { header: "OWNER" },
            { header: "LOAD", align: "right" },
            { header: "ASSIGNED" },
            { header: "REVISION", align: "right" },
          ],
          [
            ...shards.map((s) => [
              s.key,
              palette.cyan(s.owner),
              String(s.load),
              shortTime(s.assignedAt === null ? null : Date.parse(s.assignedAt)),
              String(s.assignedRevision),
            ]),
            ...quarantined.map((q) => [q.key, palette.red(`(${q.reason})`), "-", "-", "-"]),
          ],
          { palette },
        ),
    };
  });
}
