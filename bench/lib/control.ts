/**
 * Operator calls from the driver, made by a worker process
 * (`bench/workers/control.ts`) so that the driver never holds a gRPC
 * connection to a service it later stops or leaves.
 *
 * @module
 */
import type { Scope } from "./scope.ts";
import { WorkerProcess } from "./worker_process.ts";

/** The operator calls the suites make. */
export type ControlMethod = "drainShards" | "undrainShards" | "drainExecutors" | "undrainExecutors";

/** A connection to one instance for operator calls. */
export class Control {
  readonly #worker: WorkerProcess;

  private constructor(worker: WorkerProcess) {
    this.#worker = worker;
  }

  /**
   * Starts the worker (owned by `scope`) for the instance at `address`.
   *
   * @example
   * ```ts ignore
   * import { Control } from "./control.ts";
   * import type { Scope } from "./scope.ts";
   *
   * declare const scope: Scope;
   * const control = await Control.start(scope, "127.0.0.1:7943");
   * await control.call("drainShards", { namespace: "bench", shardKeys: ["7"] });
   * ```
   */
  static async start(scope: Scope, address: string): Promise<Control> {
    const worker = scope.adopt(WorkerProcess.start("control.ts", { address }, "control"));
    await worker.next("ready");
    return new Control(worker);
  }

  /** Makes one call; resolves with the answer. */
  async call(method: ControlMethod, request: Record<string, unknown>): Promise<unknown> {
    return (await this.#worker.request({ type: "call", method, request }, "answer")).response;
  }

  /** Ends the worker (its connection goes with the process, without a GOAWAY). */
  async stop(): Promise<void> {
    await this.#worker.stop("SIGKILL");
  }
}
