// deno-lint-ignore-file no-console -- examples print what happens
/**
 * One node of the cron singleton: joins the election and, while it leads,
 * runs the job on every tick of the cron expression, recording each tick in
 * the fenced ledger. A new leader first runs the ticks missed since the last
 * recorded one (catch-up), so every tick runs exactly once.
 *
 * ```sh
 * deno run -A examples/cron_singleton/node.ts --service 127.0.0.1:7943 --ledger /tmp/ledger.jsonl
 * ```
 *
 * Started by `main.ts`; run it by hand against your own service (namespace
 * `cron-leader`: `{ type: fixed, shardNum: 1 }`).
 *
 * @module
 */
import { parseArgs } from "node:util";
import { Cron } from "croner";
import { LeaderSelector, type LeadershipLease } from "../../packages/sdk/mod.ts";
import { clockTime, numberFlag, sleep, untilStopped } from "../_shared/cli.ts";
import { DuplicateTickError, FencedLedger, StaleTokenError } from "./ledger.ts";

const { values: flags } = parseArgs({
  args: Deno.args,
  options: {
    service: { type: "string", default: "127.0.0.1:7943" },
    namespace: { type: "string", default: "cron-leader" },
    ledger: { type: "string" },
    name: { type: "string", default: `node-${Deno.pid}` },
    cron: { type: "string", default: "* * * * * *" },
    "job-ms": { type: "string", default: "150" },
    "max-catch-up": { type: "string", default: "100" },
  },
});
if (!flags.ledger) throw new TypeError("--ledger FILE is required: the ledger all nodes share");
const name = flags.name;
const cron = new Cron(flags.cron);
const ledger = new FencedLedger(flags.ledger);
const jobMs = numberFlag("job-ms", flags["job-ms"], 0);
const maxCatchUp = numberFlag("max-catch-up", flags["max-catch-up"], 1);
const say = (message: string) => console.log(`${clockTime()} ${name.padEnd(7)} ${message}`);
const hms = (date: Date) => clockTime(date).slice(0, 8);

/** The job: pretend to clean up expired rows. Resolves undefined if leadership ends first. */
async function job(tick: Date, signal: AbortSignal): Promise<string | undefined> {
  await sleep(jobMs, signal);
  return signal.aborted ? undefined : `deleted ${tick.getSeconds() % 7} expired rows`;
}

/** Where to start: after the last recorded tick, but at most `maxCatchUp` ticks back. */
function startAfter(lastTick: Date | undefined): Date {
  const now = new Date();
  if (!lastTick) return now;
  const oldest = cron.previousRuns(maxCatchUp, now).at(-1);
  if (oldest && lastTick < oldest) {
    say(`more than ${maxCatchUp} ticks missed: skipping those before ${hms(oldest)}`);
    return new Date(oldest.getTime() - 1);
  }
  return lastTick;
}

async function lead(signal: AbortSignal, lease: LeadershipLease): Promise<void> {
  const token = lease.fencingToken;
  let cursor: Date;
  try {
    const { lastTick } = await ledger.fence({ token, node: name });
    say(`leading with token ${token}; last recorded tick: ${lastTick ? hms(lastTick) : "none"}`);
    cursor = startAfter(lastTick);
  } catch (error) {
    if (!(error instanceof StaleTokenError)) throw error;
    say(`not leading after all: ${error.message}`);
    return;
  }
  while (!signal.aborted) {
    const tick = cron.nextRun(cursor);
    if (!tick) return;
    await sleep(tick.getTime() - Date.now(), signal);
    if (signal.aborted) return;
    const lateMs = Math.max(0, Date.now() - tick.getTime());
    const result = await job(tick, signal);
    if (result === undefined) return;
    try {
      await ledger.commit({ tick, token, node: name, lateMs, result });
      const late = lateMs > 500 ? `; catch-up, ${(lateMs / 1000).toFixed(1)} s late` : "";
      say(`ran tick ${hms(tick)}: ${result} (token ${token}${late})`);
    } catch (error) {
      if (error instanceof StaleTokenError) {
        say(`ledger rejected tick ${hms(tick)}: ${error.message}; stepping down`);
        return;
      }
      if (!(error instanceof DuplicateTickError)) throw error;
      say(`tick ${hms(tick)} already ran; skipping`);
    }
    cursor = tick;
  }
}

const selector = new LeaderSelector({
  addresses: flags.service,
  namespace: flags.namespace,
  name,
  autoRequeue: true,
  takeLeadership: lead,
});
void (async () => {
  for await (const event of selector.events()) {
    if (event.type === "candidate") say(`joined the election as ${event.executorId}`);
    if (event.type === "not-leading") say(`no longer leading (${event.reason})`);
    if (event.type === "error") say(`error: ${event.error.message}`);
  }
})();
await selector.start(); // rejects at once on a wrong namespace or address
await untilStopped();
say("leaving the election");
await selector.close();
Deno.exit(0);
