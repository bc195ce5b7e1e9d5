/**
 * The mass-loss brake's RPC (`LiftBrake`): any instance takes it, and one
 * that does not lead the namespace forwards it to the leader, which holds the
 * brake (service/brake_operations.ts).
 *
 * @module
 */
import { NotLeaderError } from "../../core/errors.ts";
import { validateNamespace } from "../../limits/validate_request.ts";
import type { Service } from "../../service/mod.ts";
import type { ShardDistributorAPIHandlers } from "../../wire/proto.ts";
import { type HandlerContext, unary } from "./unary_handler.ts";

/** `LiftBrake` of `ShardDistributorAPI`. */
export function brakeHandlers(
  service: Pick<Service, "brakes">,
  context: HandlerContext,
): Pick<ShardDistributorAPIHandlers, "LiftBrake"> {
  return {
    LiftBrake: unary(context, "LiftBrake", async (req, signal, metadata) => {
      const namespace = validateNamespace(req.namespace);
      try {
        return { namespace, lifted: (await service.brakes.lift(namespace)).lifted };
      } catch (error) {
        const forwarded = error instanceof NotLeaderError
          ? context.forwarder?.liftBrake(req, metadata, signal)
          : undefined;
        if (forwarded === undefined) throw error;
        return await forwarded;
      }
    }, true),
  };
}
