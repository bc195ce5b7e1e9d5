/**
 * The operator's side of the mass-loss brake (leader/process/mass_loss_brake.ts):
 * reading whether it holds and lifting it, the lift recorded in the store
 * before it is answered. Only the namespace's leader holds a brake, so only
 * the leader lifts it: another instance answers `NotLeaderError` naming the
 * leader (the gRPC transport forwards the call).
 *
 * @module
 */
import { FencedError, NotLeaderError, PreconditionError } from "../core/errors.ts";
import type { NamespaceRuntime } from "../namespace/namespace_runtime.ts";
import { currentOperator } from "./operator_identity.ts";
import type { BrakeRecord, BrakeStore } from "../store/brake_store.ts";

/** What lifting did. */
export interface LiftResult {
  /** True when the brake held and is lifted; false when it was not engaged. */
  readonly lifted: boolean;
}

/**
 * Lifts mass-loss brakes.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { BrakeOperations } from "./brake_operations.ts";
 * import type { NamespaceRuntime } from "../namespace/namespace_runtime.ts";
 *
 * const runtime = {
 *   policy: { name: "orders", placement: { kind: "balanced" } },
 *   cache: { state: {} },
 *   liftBrake: () => Promise.resolve(true),
 * } as unknown as NamespaceRuntime;
 * const brakes = new BrakeOperations((_name) => runtime);
 * assert.deepEqual(await brakes.lift("orders"), { lifted: true });
 * ```
 */
export class BrakeOperations {
  readonly #lookup: (namespace: string) => NamespaceRuntime;
  readonly #store: Pick<BrakeStore, "readBrake"> | undefined;

  /**
   * Finds runtimes with `lookup` (throws `NamespaceNotFoundError` for an
   * unknown one); reads the brake's record from `store` on an instance that
   * does not lead.
   */
  constructor(
    lookup: (namespace: string) => NamespaceRuntime,
    store?: Pick<BrakeStore, "readBrake">,
  ) {
    this.#lookup = lookup;
    this.#store = store;
  }

  /**
   * The brake's latest record for `namespace` (engaged, lifted or released),
   * or undefined when it never engaged or the namespace has no brake: the
   * leader's own, else the one in the store (what the leader last recorded).
   */
  async status(namespace: string): Promise<BrakeRecord | undefined> {
    const runtime = this.#lookup(namespace);
    if (runtime.policy.placement.kind !== "balanced") return undefined;
    if (runtime.leading && runtime.brakeRecord) return runtime.brakeRecord;
    return await this.#store?.readBrake(namespace);
  }

  /**
   * Lifts `namespace`'s brake as the current operator. Throws
   * `PreconditionError` for a namespace that has no brake (cells, replicated)
   * and `NotLeaderError` on an instance that does not lead it (or whose
   * term lost the namespace while recording the lift).
   */
  async lift(namespace: string): Promise<LiftResult> {
    const runtime = this.#lookup(namespace);
    if (runtime.policy.placement.kind !== "balanced") {
      throw new PreconditionError(
        namespace,
        `Namespace ${JSON.stringify(namespace)} has no mass-loss brake: only namespaces ` +
          `with single owners placed by a load balancer have one (this one is ${runtime.policy.placement.kind})`,
      );
    }
    const lifted = await runtime.liftBrake(currentOperator() ?? "anonymous").catch((error) => {
      if (error instanceof FencedError) return undefined;
      throw error;
    });
    if (lifted === undefined) {
      const claim = runtime.cache.state.leader?.claim;
      throw new NotLeaderError(namespace, claim?.instanceId, claim?.grpcAddress);
    }
    return { lifted };
  }
}
