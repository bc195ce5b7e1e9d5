/**
 * What a chaos executor child records beyond its processors' starts and
 * stops, through the SDK's public API only:
 *
 * - every heartbeat as the executor sent it and its outcome, by wrapping the
 *   SDK's own gRPC transport (`grpcHeartbeatTransport`, passed back as the
 *   executor's `transport` option);
 * - its processors' writes through their fencing token (`ctx.fencingToken`)
 *   to the fenced store, a few times a second while they run.
 *
 * @module
 */
import type {
  HeartbeatResponse__Output,
  HeartbeatTransport,
  ShardContext,
} from "../../src/client/executor/mod.ts";
import type { FencedStore } from "./fence_store.ts";

/** Prints one event line (the child stamps `at`). */
export type LineWriter = (line: Record<string, unknown>) => void;

/** Who sends: the fields every record of one executor shares. */
export interface Sender {
  readonly process: string;
  readonly executor: string;
  readonly namespace: string;
}

/** The shards an answer gives to run, takes back, and quarantines. */
function answerShards(answer: HeartbeatResponse__Output) {
  const assigned: string[] = [];
  const releasing: string[] = [];
  for (const [shard, assignment] of Object.entries(answer.shardAssignments ?? {})) {
    const status = assignment?.status;
    if (status === "ASSIGNMENT_STATUS_RELEASING") releasing.push(shard);
    else if (status !== "ASSIGNMENT_STATUS_PREPARING") assigned.push(shard);
  }
  const quarantined = [...answer.quarantinedShards ?? []];
  return {
    assigned: assigned.sort(),
    ...(releasing.length > 0 ? { releasing: releasing.sort() } : {}),
    ...(quarantined.length > 0 ? { quarantined: quarantined.sort() } : {}),
  };
}

/**
 * `inner` with every heartbeat recorded as a `heartbeat` event: `sentAt`
 * before the call, `at` when it was answered or failed.
 *
 * @example
 * ```ts ignore
 * const transport = recordingTransport(grpcHeartbeatTransport(addresses), sender, write);
 * new Executor({ addresses, namespace, transport, processor });
 * ```
 */
export function recordingTransport(
  inner: HeartbeatTransport,
  sender: Sender,
  write: LineWriter,
): HeartbeatTransport {
  return {
    async heartbeat(request, options) {
      const sentAt = Date.now();
      const status = request.status.replace(/^EXECUTOR_STATUS_/, "");
      const common = {
        type: "heartbeat",
        sentAt,
        ...sender,
        ...(status === "ACTIVE" ? {} : { status }),
      };
      try {
        const answer = await inner.heartbeat(request, options);
        write({ ...common, ok: true, ...answerShards(answer) });
        return answer;
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        write({ ...common, ok: false, error: message.slice(0, 200) });
        throw error;
      }
    },
    ...(inner.watchAssignment
      ? { watchAssignment: (request, signal) => inner.watchAssignment!(request, signal) }
      : {}),
    ...(inner.shardOwner
      ? { shardOwner: (request, options) => inner.shardOwner!(request, options) }
      : {}),
    close: () => inner.close(),
  };
}

/** How often a processor writes, on average (jittered by ±25%). */
export const FENCED_WRITE_EVERY_MS = 400;

/**
 * Writes through `ctx.fencingToken` to the fenced store until `ctx.signal`
 * aborts, recording each acknowledged write (`write`, with its number) and
 * each refusal (`write-rejected`); a write that failed (etcd unreachable) is
 * not acknowledged and not recorded. A write in flight when the processor
 * stops may still be acknowledged: it carries the token, which is the point.
 */
export function writeWhileRunning(
  store: FencedStore,
  ctx: ShardContext,
  sender: Sender,
  write: LineWriter,
): void {
  const who = { ...sender, shard: ctx.shardKey, token: ctx.fencingToken };
  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms);
      ctx.signal.addEventListener("abort", () => (clearTimeout(timer), resolve()), { once: true });
    });
  void (async () => {
    while (!ctx.signal.aborted) {
      try {
        const outcome = await store.write(sender.namespace, ctx.shardKey, ctx.fencingToken);
        write(
          outcome.accepted
            ? { type: "write", ...who, count: outcome.count }
            : { type: "write-rejected", ...who, stored: outcome.stored },
        );
      } catch { /* not acknowledged: nothing to check */ }
      await sleep(FENCED_WRITE_EVERY_MS * (0.75 + Math.random() / 2));
    }
  })();
}
