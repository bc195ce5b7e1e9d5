/**
 * The `CanStopExecutors` RPC: a deploy tool asks whether executors may stop
 * now. Validates the request and converts the service's answer.
 *
 * @module
 */
import { InvalidArgumentError } from "../../core/errors.ts";
import {
  validateExecutorId,
  validateMetadata,
  validateNamespace,
} from "../../limits/validate_request.ts";
import type { Service, StopAnswer, StopTarget } from "../../service/mod.ts";
import type {
  CanStopExecutorsRequest__Output,
  CanStopExecutorsResponse,
  ShardDistributorAPIHandlers,
} from "../../wire/proto.ts";
import { type HandlerContext, unary } from "./unary_handler.ts";

/** Most executor ids in one `CanStopExecutors` call. */
export const MAX_CAN_STOP_IDS = 10_000;

/** The executors a request asks about: ids or a selector, exactly one of them. */
function stopTarget(req: CanStopExecutorsRequest__Output): StopTarget {
  const ids = req.executorIds;
  const pairs = Object.keys(req.selector);
  if (ids.length > 0 && pairs.length > 0) {
    throw new InvalidArgumentError("executor_ids", "give executor ids or a selector, not both");
  }
  if (ids.length === 0 && pairs.length === 0) {
    throw new InvalidArgumentError("executor_ids", "give executor ids or a selector");
  }
  if (ids.length > MAX_CAN_STOP_IDS) {
    throw new InvalidArgumentError(
      "executor_ids",
      `has ${ids.length} ids; at most ${MAX_CAN_STOP_IDS} are allowed`,
    );
  }
  if (pairs.length > 0) {
    validateMetadata(req.selector, "selector");
    return { selector: req.selector };
  }
  ids.forEach((id, i) => validateExecutorId(id, `executor_ids[${i}]`));
  return { executorIds: ids };
}

/** The wire form of the answer. */
function toResponse(answer: StopAnswer): CanStopExecutorsResponse {
  return {
    allowed: answer.allowed,
    executorIds: [...answer.executorIds],
    mayStopExecutorIds: [...answer.mayStop],
    mustWaitExecutorIds: [...answer.mustWait],
    unknownExecutorIds: [...answer.unknown],
    namespaces: answer.namespaces.map((n) => ({
      namespace: n.namespace,
      allowed: n.allowed,
      reason: n.reason,
      exclusive: n.exclusive,
      liveExecutors: n.live,
      outBefore: n.outBefore,
      outAfter: n.outAfter,
      eligibleAfter: n.eligibleAfter,
      maxDrainedShare: n.maxDrainedShare,
      executors: n.executors.map((e) => ({
        executorId: e.executorId,
        status: e.status,
        alive: e.alive,
        drained: e.drained,
        leaving: e.leaving,
        shards: e.shards,
        pendingHandovers: e.pendingHandovers,
        mayStop: e.mayStop,
      })),
    })),
  };
}

/** `CanStopExecutors` of `ShardDistributorAPI`. */
export function canStopHandlers(
  service: Service,
  context: HandlerContext,
): Pick<ShardDistributorAPIHandlers, "CanStopExecutors"> {
  return {
    CanStopExecutors: unary(context, "CanStopExecutors", (req) => {
      const namespace = req.namespace === "" ? undefined : validateNamespace(req.namespace);
      return toResponse(service.stopChecks.check(namespace, stopTarget(req)));
    }),
  };
}
