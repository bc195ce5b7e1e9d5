// @ts-check
/**
 * An application's executor process, as a user of the SDK writes it; the
 * same file runs on Deno and on Node.js (tests/sdk_*_project_test.ts copy it
 * into a fresh project and point the import below at the SDK there). It runs
 * a processor per assigned shard, writes one JSON line per event to stdout,
 * and on SIGTERM drains (the SDK's shutdown) and exits 0.
 *
 * Environment: SM_ADDRESS, SM_NAMESPACE, SM_EXECUTOR_ID, SM_ROUTE (the
 * address spectators should route to).
 *
 * @module
 */
import process from "node:process";
import { Executor } from "../../../packages/sdk/executor.ts";

/** @param {Record<string, unknown>} line */
function emit(line) {
  process.stdout.write(`${JSON.stringify({ ...line, at: Date.now() })}\n`);
}

const env = (/** @type {string} */ name) => {
  const value = process.env[name];
  if (!value) throw new Error(`Set ${name}`);
  return value;
};

const executor = await new Executor({
  addresses: [env("SM_ADDRESS")],
  namespace: env("SM_NAMESPACE"),
  executorId: env("SM_EXECUTOR_ID"),
  metadata: { address: env("SM_ROUTE") },
  heartbeatIntervalMs: 200,
  drainTimeoutMs: 3_000,
  processor: (ctx) => {
    emit({ event: "start", shard: ctx.shardKey, token: ctx.fencingToken });
    return {
      stop: () => {
        const reason = /** @type {{ reason?: string } | undefined} */ (ctx.signal.reason);
        emit({ event: "stop", shard: ctx.shardKey, reason: reason?.reason });
      },
    };
  },
}).start({ timeoutMs: 10_000 }); // rejects at once on a wrong namespace or address
emit({ event: "ready", id: executor.id });

process.once("SIGTERM", () => {
  void executor.shutdown().then(() => {
    emit({ event: "exit", status: executor.status, running: executor.runningShards });
    process.exit(0);
  });
});
