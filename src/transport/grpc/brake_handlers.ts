/**
 * The mass-loss brake's RPCs (service/brake_operations.ts): `LiftBrake`, which
 * any instance takes and one that does not lead the namespace forwards to the
 * leader, which holds the brake; `GetBrake`, which any instance answers (the
 * leader from its brake, another from the store's record).
 *
 * @module
 */
import { validateNamespace } from "../../limits/validate_request.ts";
import type { Service } from "../../service/mod.ts";
import type { ShardDistributorAPIHandlers } from "../../wire/proto.ts";
import { type HandlerContext, unary } from "./unary_handler.ts";
import { toTimestamp } from "./convert.ts";
import { atLeader } from "./leader_forwarder.ts";

/** Most lost executor ids a `GetBrake` answer names. */
const NAMED_LOST = 100;

/** `LiftBrake` and `GetBrake` of `ShardDistributorAPI`. */
export function brakeHandlers(
  service: Pick<Service, "brakes">,
  context: HandlerContext,
): Pick<ShardDistributorAPIHandlers, "LiftBrake" | "GetBrake"> {
  return {
    GetBrake: unary(context, "GetBrake", async (req) => {
      const namespace = validateNamespace(req.namespace);
      const record = await service.brakes.status(namespace);
      if (!record) return { namespace, state: "" };
      return {
        namespace,
        state: record.state,
        since: toTimestamp(record.sinceMs),
        reason: record.reason,
        executorsBefore: record.executorsBefore,
        lostExecutorIds: record.lost.slice(0, NAMED_LOST),
        lostCount: record.lost.length,
        ...(record.endedAtMs === undefined ? {} : { endedAt: toTimestamp(record.endedAtMs) }),
        liftedBy: record.liftedBy ?? "",
      };
    }),
    LiftBrake: unary(context, "LiftBrake", async (req, signal, metadata) => {
      const namespace = validateNamespace(req.namespace);
      return await atLeader(
        async () => ({ namespace, lifted: (await service.brakes.lift(namespace)).lifted }),
        () => context.forwarder?.liftBrake(req, metadata, signal),
      );
    }, true),
  };
}
