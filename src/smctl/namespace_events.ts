/**
 * `smctl namespace events [--since 10m] [--follow]`: a namespace's history
 * (ListNamespaceEvents), one line per event, oldest first; with `--follow`
 * new events as they are recorded, until Ctrl-C.
 *
 * @module
 */
import { type Command, Option } from "commander";
import { type Context, runCommand } from "./context.ts";
import { parseDuration } from "./duration.ts";
import { UsageError } from "./errors.ts";
import { sleep } from "./sleep.ts";
import { isoTime, timestampMs } from "./time.ts";
import type { HistoryEvent__Output } from "../wire/proto.ts";

/** Poll interval of `--follow`, ms. */
const FOLLOW_POLL_MS = 1_000;

/** An event as printed with `--json` (one JSON object a line when following). */
export interface EventModel {
  /** Sortable id. */
  readonly id: string;
  /** When. */
  readonly at: string | null;
  /** What happened. */
  readonly type: string;
  /** The executor concerned, or null. */
  readonly executorId: string | null;
  /** Shards moved, for assignment changes. */
  readonly moves: number;
  /** The same, per reason. */
  readonly movesByReason: Readonly<Record<string, number>>;
  /** Why (a term's end, a refusal), or null. */
  readonly reason: string | null;
  /** Who asked, for operator changes and refusals, or null. */
  readonly actor: string | null;
  /** The refused call, or null. */
  readonly method: string | null;
  /** The changed fields of a namespace update. */
  readonly changes: readonly string[];
  /** How long a store outage lasted (ms), or null. */
  readonly durationMs: number | null;
  /** One line for people. */
  readonly text: string;
}

/**
 * An event's JSON model.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { eventModel } from "./namespace_events.ts";
 *
 * const e = eventModel({
 *   id: "1", at: { seconds: "1", nanos: 0 }, type: "executor_lost", executorId: "a", drainId: "",
 *   shardKeys: [], instanceId: "", term: "0", moves: "0", movesByReason: {}, text: "executor a lost",
 *   reason: "", actor: "", method: "", changes: [], durationMs: "0",
 * });
 * assert.equal(e.at, "1970-01-01T00:00:01.000Z");
 * ```
 */
export function eventModel(wire: HistoryEvent__Output): EventModel {
  return {
    id: wire.id,
    at: isoTime(timestampMs(wire.at)),
    type: wire.type,
    executorId: wire.executorId || null,
    moves: Number(wire.moves),
    movesByReason: Object.fromEntries(
      Object.entries(wire.movesByReason).map(([k, n]) => [k, Number(n)]),
    ),
    reason: wire.reason || null,
    actor: wire.actor || null,
    method: wire.method || null,
    changes: [...(wire.changes ?? [])],
    durationMs: Number(wire.durationMs) || null,
    text: wire.text,
  };
}

/**
 * One line: `<time> <type> <text>`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { eventLine } from "./namespace_events.ts";
 *
 * assert.equal(
 *   eventLine({ id: "1", at: "1970-01-01T00:00:01.000Z", type: "executor_drained", executorId: "a",
 *     moves: 0, movesByReason: {}, reason: null, actor: "ops", method: null, changes: [],
 *     durationMs: null, text: "drain a made" }),
 *   "1970-01-01T00:00:01.000Z  executor_drained    drain a made (by ops)",
 * );
 * ```
 */
export function eventLine(e: EventModel): string {
  const by = e.actor && !e.text.includes(e.actor) ? ` (by ${e.actor})` : "";
  return `${e.at ?? "-"}  ${e.type.padEnd(18)}  ${e.text}${by}`;
}

/** Adds `events` to the `namespace` command group. */
export function registerNamespaceEvents(namespace: Command): void {
  namespace.command("events").description(
    "the namespace's history: executors joined and lost, drains, leaders, moves (ListNamespaceEvents)",
  )
    .addOption(new Option("--since <duration>", "only events of the last DURATION, e.g. 10m"))
    .option("-f, --follow", "keep printing new events until Ctrl-C")
    .addHelpText(
      "after",
      `
Kept in the store for history.maxAge (default 24h), at most history.maxEvents
(default 2000) per namespace.

Examples:
  $ smctl -n orders namespace events --since 10m
  $ smctl -n orders namespace events --follow --json`,
    )
    .action((opts: { since?: string; follow?: boolean }, command: Command) =>
      runCommand(command, (ctx) => events(ctx, opts))
    );
}

async function events(ctx: Context, opts: { since?: string; follow?: boolean }): Promise<void> {
  const namespace = ctx.namespace();
  let sinceMs: number | undefined;
  if (opts.since !== undefined) {
    try {
      sinceMs = Date.now() - parseDuration(opts.since);
    } catch (error) {
      throw new UsageError(`--since: ${(error as Error).message}`);
    }
  }
  const read = async (afterId: string | undefined) =>
    (await ctx.connection.call("listNamespaceEvents", {
      namespace,
      ...(sinceMs === undefined ? {} : {
        since: { seconds: String(Math.floor(sinceMs / 1000)), nanos: (sinceMs % 1000) * 1e6 },
      }),
      ...(afterId === undefined ? {} : { afterId }),
    })).events.map(eventModel);
  const first = await read(undefined);
  if (!opts.follow) {
    ctx.output.result(
      { namespace, events: first },
      () =>
        first.length === 0
          ? `No events in namespace ${JSON.stringify(namespace)}.`
          : first.map(eventLine).join("\n"),
    );
    return;
  }
  const print = (list: readonly EventModel[]) => {
    for (const e of list) ctx.output.line(ctx.output.json ? JSON.stringify(e) : eventLine(e));
  };
  print(first);
  let last = first.at(-1)?.id;
  const stop = new AbortController();
  const onSignal = () => stop.abort();
  Deno.addSignalListener("SIGINT", onSignal);
  try {
    while (!stop.signal.aborted) {
      await sleep(FOLLOW_POLL_MS, stop.signal);
      if (stop.signal.aborted) break;
      const next = await read(last);
      print(next);
      last = next.at(-1)?.id ?? last;
    }
  } finally {
    Deno.removeSignalListener("SIGINT", onSignal);
  }
}
