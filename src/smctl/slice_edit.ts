/**
 * `smctl slice split|merge|pin|unpin`: an operator's edits of a key-range
 * namespace's slices (`ChangeSlice`). Each prints the slices it made or
 * touched. They are not retried on their own: a split at the middle retried
 * after it was made would split again, so on UNAVAILABLE smctl says the edit
 * may have been made and how to look.
 *
 * @module
 */
import type { Command } from "commander";
import { pointHex } from "../shared/point_hex.ts";
import type { ChangeSliceRequest, ChangeSliceResponse__Output } from "../wire/proto.ts";
import { type Context, runCommand } from "./context.ts";
import { SmctlError } from "./errors.ts";
import { ExitCode } from "./exit_codes.ts";
import { renderTable } from "./table.ts";

/**
 * Adds `split`, `merge`, `pin` and `unpin` to the `slice` command group.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { Command } from "commander";
 * import { registerSliceEdits } from "./slice_edit.ts";
 *
 * const slice = new Command("smctl").command("slice");
 * registerSliceEdits(slice);
 * assert.deepEqual(slice.commands.map((c) => c.name()), ["split", "merge", "pin", "unpin"]);
 * ```
 */
export function registerSliceEdits(slice: Command): void {
  const after = (text: string) => `
${text}
Only the namespace's leader makes edits; any instance takes the call and
forwards it. An edit is committed with the leader's next pass (the call waits
for it, up to 10 s). Pinned slices (the default for a split or merge by hand)
are never split, merged or moved by the planner; a pinned slice whose owner
is gone still gets a new owner. Exit codes: 2 bad arguments (a point outside
the slice, slices that are not neighbours), 3 unknown namespace, 5 refused.`;
  slice.command("split").description("cut a slice in two; the left part keeps its id (ChangeSlice)")
    .argument("<slice>", "the slice id (as smctl slice list shows it)")
    .option("--at <point>", "first point of the right part, 16 hex digits (default: the middle)")
    .option("--at-key <key>", "cut at this key's point, so that the key starts the right part")
    .option("--unpinned", "leave both parts to the planner (it may merge them again)")
    .option("--dry-run", "print the slices it would make; change nothing")
    .addHelpText(
      "after",
      after(`Both parts keep the slice's owners: no key changes owner.

Examples:
  $ smctl -n sessions slice split 12
  $ smctl -n sessions slice split 12 --at-key tenant-4711`),
    )
    .action((id: string, opts: SplitOptions, command: Command) =>
      runCommand(command, (ctx) =>
        change(ctx, {
          shardKey: id,
          kind: "SLICE_CHANGE_KIND_SPLIT",
          splitAt: opts.at ?? "",
          splitAtKey: opts.atKey ?? "",
          unpinned: opts.unpinned === true,
          dryRun: opts.dryRun === true,
        }))
    );
  slice.command("merge").description(
    "join a slice with its neighbour; the left keeps its id (ChangeSlice)",
  )
    .argument("<slice>", "a slice id")
    .argument("<neighbour>", "the slice next to it on the line (either side)")
    .option("--unpinned", "leave the merged slice to the planner (it may split it again)")
    .option("--dry-run", "print the slice it would make; change nothing")
    .addHelpText(
      "after",
      after(`The merged slice keeps the left slice's owners: when the right one had others,
its keys move to them.

Example:
  $ smctl -n sessions slice merge 12 40`),
    )
    .action((
      id: string,
      other: string,
      opts: { unpinned?: boolean; dryRun?: boolean },
      command: Command,
    ) =>
      runCommand(command, (ctx) =>
        change(ctx, {
          shardKey: id,
          kind: "SLICE_CHANGE_KIND_MERGE",
          mergeWithShardKey: other,
          unpinned: opts.unpinned === true,
          dryRun: opts.dryRun === true,
        }))
    );
  for (
    const [name, kind, text] of [
      [
        "pin",
        "SLICE_CHANGE_KIND_PIN",
        "keep the planner from splitting, merging or moving a slice",
      ],
      ["unpin", "SLICE_CHANGE_KIND_UNPIN", "give a slice back to the planner"],
    ] as const
  ) {
    slice.command(name).description(`${text} (ChangeSlice)`)
      .argument("<slice>", "the slice id")
      .addHelpText("after", after(`Example:\n  $ smctl -n sessions slice ${name} 12`))
      .action((id: string, _opts: unknown, command: Command) =>
        runCommand(command, (ctx) => change(ctx, { shardKey: id, kind }))
      );
  }
}

interface SplitOptions {
  at?: string;
  atKey?: string;
  unpinned?: boolean;
  dryRun?: boolean;
}

async function change(ctx: Context, request: Omit<ChangeSliceRequest, "namespace">): Promise<void> {
  const namespace = ctx.namespace();
  let answer: ChangeSliceResponse__Output;
  try {
    answer = await ctx.connection.call("changeSlice", { ...request, namespace });
  } catch (error) {
    if (!(error instanceof SmctlError) || error.exitCode !== ExitCode.UNAVAILABLE) throw error;
    throw new SmctlError(
      `${error.message}. The edit may still be made once the service recovers; check with: ` +
        `smctl -n ${namespace} slice list`,
      ExitCode.UNAVAILABLE,
      { cause: error },
    );
  }
  const slices = answer.slices.map((s) => ({
    slice: s.shardKey,
    first: s.keyRange ? pointHex(BigInt(s.keyRange.firstPoint)) : "",
    last: s.keyRange ? pointHex(BigInt(s.keyRange.lastPoint)) : "",
    generation: s.keyRange?.generation ?? 0,
    owners: s.ownerExecutorIds,
    pinned: s.pinned,
  }));
  const palette = ctx.output.palette;
  ctx.output.result(
    { namespace, dryRun: answer.dryRun, slices },
    () =>
      `${answer.dryRun ? "Dry run: the edit would leave" : "Done:"}\n` + renderTable(
        [
          { header: "SLICE" },
          { header: "FIRST" },
          { header: "LAST" },
          { header: "GEN", align: "right" },
          { header: "OWNERS" },
          { header: "PINNED" },
        ],
        slices.map((s) => [
          s.slice,
          s.first,
          s.last,
          String(s.generation),
          palette.cyan(s.owners.join(",")),
          s.pinned ? "pinned" : "",
        ]),
        { palette },
      ),
  );
}
