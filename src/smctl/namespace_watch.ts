/**
 * `smctl namespace watch`: a live view driven by `WatchNamespaceState`, with
 * executors' status from `GetNamespaceState`. On a terminal it redraws in
 * place (refreshing status every second); otherwise it prints one line per
 * update. SIGINT (Ctrl-C) and SIGTERM end it with exit code 0 and the cursor
 * restored. A stream cut by a restarting instance is reopened with backoff.
 *
 * @module
 */
import { backoffDelay } from "../client/common/backoff.ts";
import { monotonicClock } from "../client/common/clock.ts";
import type { WatchNamespaceStateResponse__Output } from "../wire/proto.ts";
import type { Context } from "./context.ts";
import { formatDuration } from "./duration.ts";
import { SmctlError } from "./errors.ts";
import { ExitCode } from "./exit_codes.ts";
import { type ExecutorModel, executorModel } from "./model.ts";
import { LiveScreen } from "./screen.ts";
import { sleep } from "./sleep.ts";
import { watchFrame, watchJson, watchLine, watchRows } from "./watch_view.ts";

const REFRESH_MS = 1_000;

/**
 * Runs the watch until interrupted; rejects with an `SmctlError` when the
 * namespace is unknown, or the first picture does not arrive in `--timeout`.
 *
 * @example
 * ```ts ignore
 * import { watchNamespace } from "./namespace_watch.ts";
 *
 * await runCommand(command, watchNamespace);
 * ```
 */
export async function watchNamespace(ctx: Context): Promise<void> {
  const namespace = ctx.namespace();
  const out = ctx.output;
  const live = out.stdoutIsTerminal && !out.json;
  const stop = new AbortController();
  let latest: WatchNamespaceStateResponse__Output | undefined;
  let version = 0;
  let failure: unknown;
  let note: string | undefined;
  let wake = Promise.withResolvers<void>();
  const poke = () => wake.resolve();
  const onSignal = () => {
    stop.abort();
    poke();
  };
  Deno.addSignalListener("SIGINT", onSignal);
  Deno.addSignalListener("SIGTERM", onSignal);
  const screen = live ? new LiveScreen((text) => out.write(text)) : undefined;
  const clock = monotonicClock;
  const firstDeadline = clock.setTimeout(() => {
    if (version > 0) return;
    failure ??= new SmctlError(
      `no picture of namespace ${JSON.stringify(namespace)} from ${ctx.connection.address} within ${
        formatDuration(ctx.options.timeout)
      }`,
      ExitCode.UNAVAILABLE,
    );
    poke();
  }, ctx.options.timeout);
  // On a terminal, status is refreshed every second.
  const ticking = live
    ? (async () => {
      while (!stop.signal.aborted) {
        await sleep(REFRESH_MS, stop.signal, clock);
        poke();
      }
    })()
    : undefined;
  const pump = (async () => {
    let opened = 0;
    for (let attempt = 0; !stop.signal.aborted;) {
      try {
        for await (const message of ctx.connection.watch(namespace, stop.signal)) {
          latest = message;
          version++;
          attempt = 0;
          note = undefined;
          poke();
        }
        if (stop.signal.aborted) return;
      } catch (error) {
        // Reopen only a stream that worked and was cut (a restarting instance), or one that
        // could not open while --endpoints has others to try (the connection moved on).
        const retriable = error instanceof SmctlError && error.exitCode === ExitCode.UNAVAILABLE;
        const untried = ++opened < ctx.connection.addresses.length;
        if (!retriable || (version === 0 && !untried)) throw error;
        if (version === 0) continue;
      }
      note = "reconnecting…";
      if (!live && !out.json) out.writeErr(`smctl: watch stream ended; reconnecting\n`);
      poke();
      await sleep(backoffDelay(attempt++, { baseMs: 200, maxMs: 5_000 }), stop.signal, clock);
    }
  })().catch((error) => {
    failure ??= error;
    poke();
  });

  let states: readonly ExecutorModel[] | undefined;
  let shown = 0;
  try {
    while (true) {
      await wake.promise;
      wake = Promise.withResolvers();
      if (stop.signal.aborted) break;
      if (failure !== undefined) throw failure;
      if (latest === undefined) continue;
      clock.clearTimeout(firstDeadline);
      const picture = latest;
      const seen = version;
      states = await fetchStates(ctx, namespace, stop.signal) ?? states;
      if (stop.signal.aborted) break;
      const rows = watchRows(picture, states);
      const now = Date.now();
      if (screen) {
        const size = consoleSize();
        screen.draw(
          watchFrame(namespace, rows, {
            drawnAt: now,
            palette: out.palette,
            ...(size ? { size } : {}),
            ...(note ? { note } : {}),
          }),
        );
      } else if (seen !== shown) {
        if (out.json) out.record(watchJson(namespace, rows, now));
        else out.line(watchLine(namespace, rows, now));
      }
      shown = seen;
    }
  } finally {
    stop.abort();
    clock.clearTimeout(firstDeadline);
    await ticking;
    Deno.removeSignalListener("SIGINT", onSignal);
    Deno.removeSignalListener("SIGTERM", onSignal);
    screen?.close();
    await pump;
  }
}

async function fetchStates(
  ctx: Context,
  namespace: string,
  signal: AbortSignal,
): Promise<ExecutorModel[] | undefined> {
  try {
    const state = await ctx.connection.call("getNamespaceState", { namespace }, signal);
    return state.executors.map(executorModel);
  } catch {
    return undefined; // keep showing the last known status; the stream is what matters
  }
}

function consoleSize(): { columns: number; rows: number } | undefined {
  try {
    const size = Deno.consoleSize();
    // A pseudo-terminal nobody sized reports 0x0: draw uncut rather than nothing.
    return size.columns >= 20 && size.rows >= 5 ? size : undefined;
  } catch {
    return undefined;
  }
}
