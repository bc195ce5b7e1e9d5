/**
 * A child process running the executor SDK or a leader selector, for tests
 * that kill an SDK process for real. It writes one JSON line per event to
 * stdout (`at` is `Date.now()`, comparable across processes) and closes
 * gracefully on SIGTERM.
 *
 * Usage: `deno run -A sdk_child.ts executor|leader <json options>` where the
 * options are `{ addresses, namespace, name?, heartbeatIntervalMs? }`.
 *
 * @module
 */
import { Executor } from "../../src/client/executor/mod.ts";
import { leaderSelector } from "../../src/client/leader/mod.ts";

/** What the parent passes. */
export interface ChildOptions {
  readonly addresses: readonly string[];
  readonly namespace: string;
  readonly name?: string;
  readonly heartbeatIntervalMs?: number;
  /** Executor: each processor takes this long to stop (prints "stopping", then "stop"). */
  readonly stopDelayMs?: number;
  /** Executor: the processors of these shards fail to start (print "start-failed", then throw). */
  readonly failStarts?: readonly string[];
}

const encoder = new TextEncoder();
const write = (line: Record<string, unknown>) =>
  Deno.stdout.writeSync(encoder.encode(JSON.stringify({ ...line, at: Date.now() }) + "\n"));

async function main(mode: string, options: ChildOptions): Promise<void> {
  if (mode === "executor") {
    const executor = new Executor({
      addresses: options.addresses,
      namespace: options.namespace,
      ...(options.name ? { executorId: options.name } : {}),
      heartbeatIntervalMs: options.heartbeatIntervalMs ?? 200,
      processor: (ctx) => {
        if (options.failStarts?.includes(ctx.shardKey)) {
          write({ event: "start-failed", shard: ctx.shardKey });
          throw new Error(`shard ${ctx.shardKey} cannot start (test)`);
        }
        write({ event: "start", shard: ctx.shardKey, token: ctx.fencingToken });
        const delay = options.stopDelayMs ?? 0;
        if (delay === 0) return { stop: () => void write({ event: "stop", shard: ctx.shardKey }) };
        return {
          stop: async () => {
            write({ event: "stopping", shard: ctx.shardKey });
            await new Promise((resolve) => setTimeout(resolve, delay));
            write({ event: "stop", shard: ctx.shardKey });
          },
        };
      },
    });
    void executor.start(); // "ready" means created: tests start executors before the service
    write({ event: "ready", id: executor.id });
    await stopOnSigterm(() => executor.shutdown());
  } else {
    const selector = leaderSelector({
      addresses: options.addresses,
      namespace: options.namespace,
      name: options.name ?? "child",
      autoRequeue: true,
      takeLeadership: async (signal, lease) => {
        write({ event: "leading", token: lease.fencingToken, id: lease.executorId });
        await new Promise((resolve) => signal.addEventListener("abort", resolve, { once: true }));
        write({ event: "not-leading", id: lease.executorId });
      },
    });
    write({ event: "ready", id: selector.participantId });
    await stopOnSigterm(() => selector.close());
  }
  write({ event: "exit" });
}

function stopOnSigterm(close: () => Promise<void>): Promise<void> {
  return new Promise((resolve) => {
    Deno.addSignalListener("SIGTERM", () => void close().then(resolve));
  });
}

if (import.meta.main) {
  const [mode = "", json = "{}"] = Deno.args;
  await main(mode, JSON.parse(json) as ChildOptions);
  Deno.exit(0);
}
