/**
 * `smctl slice list` and `smctl slice hot`: the slices of a key-range
 * namespace (`type: range`) with their ranges, owners and loads, and the
 * heaviest keys their owners report, from `GetNamespaceState`.
 *
 * @module
 */
import type { Command } from "commander";
import { pointHex } from "../shared/point_hex.ts";
import type { NamespaceExecutorState__Output } from "../wire/proto.ts";
import { type Context, runCommand } from "./context.ts";
import { SmctlError } from "./errors.ts";
import { ExitCode } from "./exit_codes.ts";
import { showList } from "./list_watch.ts";
import { renderTable } from "./table.ts";
import { registerSliceEdits } from "./slice_edit.ts";

/** One slice as listed. */
export interface ListedSlice {
  /** Its shard key (the slice id in decimal). */
  readonly key: string;
  /** First point of the hash line, 16 hex digits. */
  readonly first: string;
  /** Last point (included), 16 hex digits. */
  readonly last: string;
  /** Bumped whenever the range of this id changes. */
  readonly generation: number;
  /** Share of the line, 0 to 1. */
  readonly share: number;
  /** Its owners, sorted (several for a hot key in an available namespace). */
  readonly owners: readonly string[];
  /** The load its owners reported, summed. */
  readonly load: number;
  /** Its heaviest keys, heaviest first, summed over its owners. */
  readonly topKeys: readonly { readonly key: string; readonly load: number }[];
  /** Pinned by an operator (`smctl slice pin`): the planner leaves it as it is. */
  readonly pinned: boolean;
}

const LINE = 2 ** 64;

/**
 * The slices of a namespace's executors, in line order; empty when none of
 * their shards carries a key range (not a key-range namespace).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { sliceRows } from "./slice_list.ts";
 *
 * const held = (shardKey: string, firstPoint: string, lastPoint: string, shardLoad: number) => ({
 *   shardKey, shardLoad, keyRange: { firstPoint, lastPoint, generation: 0 }, topKeys: [],
 * });
 * const rows = sliceRows([
 *   { executorId: "b", assignedShards: [held("1", "9223372036854775808", "18446744073709551615", 2)] },
 *   { executorId: "a", assignedShards: [held("0", "0", "9223372036854775807", 5)] },
 * ] as never);
 * assert.deepEqual(rows.map((r) => [r.key, r.owners, r.share, r.first]), [
 *   ["0", ["a"], 0.5, "0000000000000000"],
 *   ["1", ["b"], 0.5, "8000000000000000"],
 * ]);
 * ```
 */
export function sliceRows(executors: readonly NamespaceExecutorState__Output[]): ListedSlice[] {
  const slices = new Map<string, {
    first: bigint;
    last: bigint;
    generation: number;
    owners: string[];
    load: number;
    keys: Map<string, number>;
    pinned: boolean;
  }>();
  for (const e of executors) {
    for (const s of e.assignedShards) {
      const range = s.keyRange;
      if (!range) continue;
      const slice = slices.get(s.shardKey) ?? {
        first: BigInt(range.firstPoint),
        last: BigInt(range.lastPoint),
        generation: range.generation,
        owners: [],
        load: 0,
        keys: new Map<string, number>(),
        pinned: s.pinned === true,
      };
      slices.set(s.shardKey, slice);
      slice.owners.push(e.executorId);
      slice.load += s.shardLoad;
      for (const k of s.topKeys ?? []) slice.keys.set(k.key, (slice.keys.get(k.key) ?? 0) + k.load);
    }
  }
  return [...slices].map(([key, s]): ListedSlice => ({
    key,
    first: pointHex(s.first),
    last: pointHex(s.last),
    generation: s.generation,
    share: Number(s.last - s.first + 1n) / LINE,
    owners: s.owners.sort(),
    load: s.load,
    topKeys: [...s.keys].map(([k, load]) => ({ key: k, load }))
      .sort((a, b) => b.load - a.load || (a.key < b.key ? -1 : 1)),
    pinned: s.pinned,
  })).sort((a, b) => (a.first < b.first ? -1 : a.first > b.first ? 1 : 0));
}

/** The heaviest keys over all slices, heaviest first, at most `top`. */
export function hotKeys(
  slices: readonly ListedSlice[],
  top: number,
): { key: string; slice: string; owners: readonly string[]; load: number; share: number }[] {
  const total = slices.reduce((sum, s) => sum + s.load, 0);
  return slices.flatMap((s) =>
    s.topKeys.map((k) => ({
      key: k.key,
      slice: s.key,
      owners: s.owners,
      load: k.load,
      share: total > 0 ? k.load / total : 0,
    }))
  ).sort((a, b) => b.load - a.load || (a.key < b.key ? -1 : 1)).slice(0, top);
}

/**
 * Adds the `slice` group (`list`, `hot`, and the edits of slice_edit.ts).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { Command } from "commander";
 * import { registerSliceCommands } from "./slice_list.ts";
 *
 * const program = new Command("smctl");
 * registerSliceCommands(program);
 * assert.deepEqual(program.commands[0]!.commands.map((c) => c.name()), [
 *   "list",
 *   "hot",
 *   "split",
 *   "merge",
 *   "pin",
 *   "unpin",
 * ]);
 * ```
 */
export function registerSliceCommands(program: Command): void {
  const slice = program.command("slice").description(
    "the slices of a key-range namespace (type: range): ranges, owners, loads, hot keys, edits",
  );
  slice.command("list").description(
    "list the slices in line order with their range, share of the line, owners and load",
  )
    .option("-w, --watch", "print the list again each time it changes (Ctrl-C to stop)")
    .addHelpText(
      "after",
      `
-o wide adds each slice's generation and its heaviest key. A PINNED column
shows when an operator pinned slices (smctl slice pin). A namespace that is
not a key-range one exits 3.

Examples:
  $ smctl -n sessions slice list
  $ smctl -n sessions slice list -o wide --watch`,
    )
    .action((opts: { watch?: boolean }, command: Command) =>
      runCommand(command, (ctx) => list(ctx, opts.watch === true))
    );
  slice.command("hot").description(
    "list the heaviest keys the executors report, with their slice, owners and share of the load",
  )
    .option("--top <n>", "how many keys", "20")
    .addHelpText(
      "after",
      `
A key whose slice is that key alone (its range one point) has been isolated:
with several owners, requests for it are spread over them.

Examples:
  $ smctl -n sessions slice hot --top 5`,
    )
    .action((opts: { top: string }, command: Command) =>
      runCommand(command, (ctx) => hot(ctx, opts.top))
    );
  registerSliceEdits(slice);
}

async function slicesOf(ctx: Context, signal?: AbortSignal): Promise<ListedSlice[]> {
  const namespace = ctx.namespace();
  const state = await ctx.connection.call("getNamespaceState", { namespace }, signal);
  const rows = sliceRows(state.executors);
  const owned = state.executors.some((e) => e.assignedShards.length > 0);
  if (rows.length === 0 && owned) {
    throw new SmctlError(
      `namespace ${JSON.stringify(namespace)} is not a key-range namespace (type: range)`,
      ExitCode.NOT_FOUND,
    );
  }
  return rows;
}

async function list(ctx: Context, watch: boolean): Promise<void> {
  const namespace = ctx.namespace();
  await showList(ctx, namespace, watch, async (signal) => {
    const slices = await slicesOf(ctx, signal);
    const palette = ctx.output.palette;
    const pins = slices.some((s) => s.pinned);
    return {
      value: { namespace, slices },
      human: (wide) =>
        slices.length === 0 ? "No slices (no executor yet)." : renderTable(
          [
            { header: "SLICE" },
            { header: "FIRST" },
            { header: "LAST" },
            { header: "SHARE", align: "right" },
            { header: "OWNERS" },
            { header: "LOAD", align: "right" },
            ...(pins ? [{ header: "PINNED" }] : []),
            ...(wide ? [{ header: "GEN", align: "right" as const }, { header: "TOP KEY" }] : []),
          ],
          slices.map((s) => [
            s.key,
            s.first,
            s.last,
            percent(s.share),
            palette.cyan(s.owners.join(",")),
            round(s.load),
            ...(pins ? [s.pinned ? "pinned" : ""] : []),
            ...(wide
              ? [
                String(s.generation),
                s.topKeys[0] ? `${s.topKeys[0].key} (${round(s.topKeys[0].load)})` : "-",
              ]
              : []),
          ]),
          { palette },
        ),
    };
  });
}

async function hot(ctx: Context, topText: string): Promise<void> {
  const top = Number(topText);
  if (!Number.isInteger(top) || top < 1) {
    throw new SmctlError(
      `--top must be a whole number of 1 or more, got ${topText}`,
      ExitCode.USAGE,
    );
  }
  const namespace = ctx.namespace();
  const keys = hotKeys(await slicesOf(ctx), top);
  const palette = ctx.output.palette;
  ctx.output.result(
    { namespace, keys },
    () =>
      keys.length === 0 ? "No key loads reported (executors call ctx.reportKeyLoad)." : renderTable(
        [
          { header: "KEY" },
          { header: "SLICE" },
          { header: "OWNERS" },
          { header: "LOAD", align: "right" },
          { header: "SHARE", align: "right" },
        ],
        keys.map((k) => [
          k.key,
          k.slice,
          palette.cyan(k.owners.join(",")),
          round(k.load),
          percent(k.share),
        ]),
        { palette },
      ),
  );
}

function percent(share: number): string {
  const p = share * 100;
  return `${p >= 10 ? p.toFixed(0) : p >= 0.1 ? p.toFixed(1) : p > 0 ? "<0.1" : "0"}%`;
}

function round(n: number): string {
  return n >= 100 ? n.toFixed(0) : String(Math.round(n * 100) / 100);
}
