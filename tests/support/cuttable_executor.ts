/**
 * SDK executors in the test process over real gRPC whose heartbeats can be
 * cut, as if their process had died: the service stops hearing from them
 * and, after `heartbeatTTL`, judges them lost. Lighter than a process per
 * executor on a machine with two cores.
 *
 * @module
 */
import {
  Executor,
  type ExecutorEvent,
  type ExecutorOptions,
  grpcHeartbeatTransport,
  type HeartbeatTransport,
} from "../../src/client/executor/mod.ts";

/** An executor whose heartbeats {@linkcode CuttableExecutor.cut} silences for good. */
export interface CuttableExecutor {
  readonly executor: Executor;
  /** Its events so far. */
  readonly events: ExecutorEvent[];
  /** Whether it was cut. */
  readonly isCut: () => boolean;
  /** Silences its heartbeats (they hang until their timeout). */
  cut(): void;
  /** Shuts it down (once cut: after `drainTimeoutMs`, 1 s). */
  close(): Promise<void>;
}

/** Starts an executor of `namespace` at `address`; `processor` gets the executor to cut. */
export function cuttableExecutor(
  address: string,
  namespace: string,
  id: string,
  options: Partial<ExecutorOptions> & { readonly processor: ExecutorOptions["processor"] },
): CuttableExecutor {
  const inner = grpcHeartbeatTransport([address]);
  let cut = false;
  const transport: HeartbeatTransport = {
    heartbeat: (request, call) => {
      if (!cut) return inner.heartbeat(request, call);
      return new Promise((_, reject) =>
        call.signal.addEventListener("abort", () => reject(new Error("cut")), { once: true })
      );
    },
    close: () => inner.close(),
  };
  const executor = new Executor({
    addresses: address,
    namespace,
    executorId: id,
    heartbeatIntervalMs: 200,
    heartbeatTimeoutMs: 1_000,
    drainTimeoutMs: 1_000,
    transport,
    logger: false,
    ...options,
  });
  const events: ExecutorEvent[] = [];
  void (async () => {
    for await (const event of executor.events()) events.push(event);
  })();
  void executor.start().catch(() => {});
  return {
    executor,
    events,
    isCut: () => cut,
    cut: () => void (cut = true),
    close: () => executor.shutdown(),
  };
}
