/**
 * The `WatchExecutorAssignment` method: a server stream of small hints
 * (`{ revision }`) telling one executor that its assignment changed, so that
 * it heartbeats at once instead of at its next interval. The hints come from
 * the namespace's `AssignmentHints` (routing/assignment_hints.ts) through the
 * service's `Routing` use case; the stream is written by `pipeTo` into
 * `serverStreamSink`, so it is pulled only as fast as the socket drains and a
 * slow executor gets the newest hint, never a queue. Errors map as every
 * other call's (`status_map.ts`): NOT_FOUND for an unknown namespace or
 * executor, INVALID_ARGUMENT for a malformed request, RESOURCE_EXHAUSTED past
 * the streams one executor may hold.
 *
 * @module
 */
import { validateExecutorId, validateNamespace } from "../../limits/validate_request.ts";
import type { Routing } from "../../service/mod.ts";
import type {
  ShardDistributorExecutorAPIHandlers,
  WatchExecutorAssignmentResponse,
} from "../../wire/proto.ts";
import { decoded } from "./malformed.ts";
import { callSignal, serverStreamSink } from "./server_stream_sink.ts";
import { isUnexpected, toGrpcError } from "./status_map.ts";
import type { HandlerContext } from "./unary_handler.ts";

/** The server-streaming handler of `WatchExecutorAssignment` over `routing`. */
export function assignmentWatchHandler(
  routing: Pick<Routing, "watchExecutorAssignment">,
  context: HandlerContext,
): ShardDistributorExecutorAPIHandlers["WatchExecutorAssignment"] {
  const { logger } = context;
  const encode = (hint: { readonly revision: number }): WatchExecutorAssignmentResponse => ({
    revision: String(hint.revision),
  });
  return (call) => {
    const signal = callSignal(call);
    (async () => {
      const request = decoded(call.request);
      const namespace = validateNamespace(request.namespace);
      const executorId = validateExecutorId(request.executorId);
      const hints = await routing.watchExecutorAssignment(namespace, executorId, signal);
      await hints.pipeTo(serverStreamSink(call, { encode, signal }), { signal });
    })().catch((error) => {
      if (signal.aborted) return; // the executor went away: nobody to tell
      if (isUnexpected(error)) logger.error("assignment watch failed", { error });
      call.emit("error", toGrpcError(error));
    });
  };
}
