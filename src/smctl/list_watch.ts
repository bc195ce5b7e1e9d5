/**
 * `--watch` on list commands: print the list, then again each time the
 * namespace changes (a message on its watch stream) and the list differs
 * from the last one printed. On a terminal (table output) the list is
 * redrawn in place; otherwise each new list follows the last (a blank line
 * between tables, one compact JSON or YAML document each). Ctrl-C ends it
 * (exit 0); a broken stream is reopened.
 *
 * @module
 */
import { backoffDelay } from "../client/common/backoff.ts";
import type { Context } from "./context.ts";
import { SmctlError } from "./errors.ts";
import { ExitCode } from "./exit_codes.ts";
import { LiveScreen } from "./screen.ts";
import { sleep } from "./sleep.ts";

/** One rendering of a list: the document for programs and the text for people. */
export interface ListView {
  /** What `-o json|yaml|jsonpath` prints. */
  readonly value: unknown;
  /** What tells one list from the next (`--watch`). @default {the JSON of `value`} */
  readonly changeKey?: string;
  /** What a table prints (`wide` under `-o wide`). */
  readonly human: (wide: boolean) => string;
}

/**
 * Prints `fetch()`'s list once, or with `watch` every time it changes.
 *
 * @example
 * ```ts ignore
 * import { showList } from "./list_watch.ts";
 *
 * await showList(ctx, "orders", true, async () => ({ value: {}, human: () => "..." }));
 * ```
 */
export async function showList(
  ctx: Context,
  namespace: string,
  watch: boolean,
  fetch: (signal?: AbortSignal) => Promise<ListView>,
): Promise<void> {
  const out = ctx.output;
  if (!watch) {
    const view = await fetch();
    out.result(view.value, view.human);
    return;
  }
  const stop = new AbortController();
  const onSignal = () => stop.abort();
  Deno.addSignalListener("SIGINT", onSignal);
  Deno.addSignalListener("SIGTERM", onSignal);
  const screen = out.stdoutIsTerminal && !out.json
    ? new LiveScreen((text) => out.write(text))
    : undefined;
  let last: string | undefined;
  const show = async () => {
    const view = await fetch(stop.signal);
    const key = view.changeKey ?? JSON.stringify(view.value);
    if (key === last) return;
    if (screen) screen.draw(out.humanText(view.human).split("\n"));
    else if (out.json) out.record(view.value);
    else {
      if (last !== undefined) out.line("");
      out.result(view.value, view.human);
    }
    last = key;
  };
  try {
    await show();
    for (let attempt = 0; !stop.signal.aborted;) {
      try {
        for await (const _ of ctx.connection.watch(namespace, stop.signal)) {
          attempt = 0;
          await show();
        }
      } catch (error) {
        if (stop.signal.aborted) break;
        if (!(error instanceof SmctlError) || error.exitCode !== ExitCode.UNAVAILABLE) throw error;
        out.warn(`${error.message}; reconnecting`);
      }
      if (stop.signal.aborted) break;
      await sleep(backoffDelay(attempt++, { baseMs: 200, maxMs: 5_000 }), stop.signal).catch(
        () => {},
      );
    }
  } catch (error) {
    if (!stop.signal.aborted) throw error;
  } finally {
    stop.abort();
    Deno.removeSignalListener("SIGINT", onSignal);
    Deno.removeSignalListener("SIGTERM", onSignal);
    screen?.close();
  }
}
