/**
 * gRPC handlers: decode a request, call the service, encode the answer, and
 * map errors in one place (`status_map.ts`: code, message and typed detail
 * trailer, the same for unary calls and the watch stream).
 *
 * @module
 */
import { keyRangeOf } from "./key_range.ts";
import { atLeader } from "./leader_forwarder.ts";
import { canStopHandlers } from "./can_stop_handler.ts";
import { historyHandlers } from "./history_handlers.ts";
import { brakeHandlers } from "./brake_handlers.ts";
import { sliceHandlers } from "./slice_handlers.ts";
import { validateRequestId } from "../../service/mod.ts";
import { validateDrainTarget } from "../../core/executor_drain.ts";
import {
  validateExecutorId,
  validateMetadata,
  validateNamespace,
  validateReason,
  validateShardKey,
  validateShardKeys,
} from "../../limits/validate_request.ts";
import type { Service } from "../../service/mod.ts";
import {
  toBlastRadiusResponse,
  toExecutorDrain,
  toExecutorState,
  toInspectShardResponse,
  toNamespaceLeader,
  toShardOwners,
  toWatchResponse,
} from "./convert.ts";
import {
  type ShardDistributorAPIHandlers,
  shardDistributorService,
  type WatchNamespaceStateResponse,
} from "../../wire/proto.ts";
import { EncodedOnce } from "./fast_path/mod.ts";
import { writeWatchDelta, writeWatchPicture } from "./watch_message_writer.ts";
import { callSignal, serverStreamSink } from "./server_stream_sink.ts";
import { isUnexpected, toGrpcError } from "./status_map.ts";
import { decoded } from "./malformed.ts";
import { namespaceHandlers } from "./namespace_handlers.ts";
import { type HandlerContext, unary } from "./unary_handler.ts";

export type { HandlerContext } from "./unary_handler.ts";

/** Checks a drain target's executor id or selector against the request limits. */
function drainTarget(req: { executorId: string; selector: Record<string, string> }) {
  if (req.executorId !== "") validateExecutorId(req.executorId);
  validateMetadata(req.selector, "selector");
  return validateDrainTarget(req.executorId, req.selector);
}

/** Handlers of `ShardDistributorAPI`. */
export function routingHandlers(
  service: Service,
  context: HandlerContext,
): ShardDistributorAPIHandlers {
  const { logger } = context;
  const ops = service.operations;
  const drains = service.executorDrains;
  // Subscribers at the same point share one view: encode it once for all of them,
  // straight to bytes unless it holds what the direct writers leave to protobufjs.
  const serialize = shardDistributorService.WatchNamespaceState.responseSerialize;
  const watchBytes = new EncodedOnce((view: Parameters<typeof toWatchResponse>[0]) =>
    (view.kind === "delta" ? writeWatchDelta(view) : writeWatchPicture(view)) ??
      serialize(toWatchResponse(view))
  );
  const { limits } = service;
  const shardKey = (key: string) => validateShardKey(key, "shard_key", limits);
  return {
    GetShardOwner: unary(context, "GetShardOwner", async (req, signal) => {
      const ns = validateNamespace(req.namespace);
      const view = await service.routing.getShardOwner(ns, shardKey(req.shardKey), signal);
      return {
        owner: view.owner,
        namespace: view.namespace,
        metadata: view.metadata,
        owners: toShardOwners(view.owners),
        ...(view.slice
          ? { sliceKey: String(view.slice.id), keyRange: keyRangeOf(view.slice) }
          : {}),
      };
    }, true),
    InspectShard: unary(
      context,
      "InspectShard",
      (req) =>
        toInspectShardResponse(service.routing.inspectShard(
          validateNamespace(req.namespace),
          shardKey(req.shardKey),
        )),
    ),
    GetNamespaceState: unary(context, "GetNamespaceState", (req) => {
      const namespace = validateNamespace(req.namespace);
      return {
        namespace,
        executors: service.routing.getNamespaceState(namespace).map(toExecutorState),
        shardMoves: service.routing.getShardMoves(namespace),
      };
    }),
    GetExecutorState: unary(context, "GetExecutorState", (req) => {
      const namespace = validateNamespace(req.namespace);
      const id = validateExecutorId(req.executorId);
      return {
        namespace,
        executor: toExecutorState(service.routing.getExecutorState(namespace, id)),
      };
    }),
    ListNamespaces: unary(context, "ListNamespaces", () => ({
      namespaces: service.routing.listNamespaces().map((n) => ({
        name: n.name,
        type: n.type,
        mode: n.mode,
        shardNum: String(n.shardNum),
        source: n.source,
      })),
    })),
    ...namespaceHandlers(service, context),
    ...historyHandlers(service, context),
    ...canStopHandlers(service, context),
    ...brakeHandlers(service, context),
    ...sliceHandlers(service, context),
    DrainShards: unary(context, "DrainShards", async (req) => ({
      drainedShardKeys: await ops.drainShards(
        validateNamespace(req.namespace),
        validateShardKeys(req.shardKeys, limits),
        { requestId: validateRequestId(req.requestId) },
      ),
    })),
    UndrainShards: unary(context, "UndrainShards", async (req) => ({
      undrainedShardKeys: await ops.undrainShards(
        validateNamespace(req.namespace),
        validateShardKeys(req.shardKeys, limits),
        { requestId: validateRequestId(req.requestId) },
      ),
    })),
    GetDrainedShards: unary(context, "GetDrainedShards", (req) => {
      const namespace = validateNamespace(req.namespace);
      return {
        namespace,
        shardKeys: ops.drainedShards(namespace),
        quarantinedShardKeys: ops.quarantinedShards(namespace),
      };
    }),
    ForceResetNamespace: unary(context, "ForceResetNamespace", async (req) => ({
      deletedKeys: String(
        await ops.forceReset(validateNamespace(req.namespace), {
          requestId: validateRequestId(req.requestId),
        }),
      ),
    })),
    DrainExecutors: unary(context, "DrainExecutors", async (req) => {
      const namespace = validateNamespace(req.namespace);
      const target = drainTarget(req);
      const reason = validateReason(req.reason);
      const made = await drains.drain(namespace, target, reason, {
        requestId: validateRequestId(req.requestId),
        force: req.force === true,
        dryRun: req.dryRun === true,
      });
      return {
        drain: toExecutorDrain(made),
        dryRun: made.dryRun,
        plannedMoves: made.plannedMoves.map((m) => ({
          shardKey: m.shardKey,
          fromExecutorId: m.from,
          toExecutorId: m.to,
        })),
      };
    }),
    UndrainExecutors: unary(context, "UndrainExecutors", async (req) => {
      const namespace = validateNamespace(req.namespace);
      const target = drainTarget(req);
      const { removed, stillDrained } = await drains.undrain(namespace, target, {
        requestId: validateRequestId(req.requestId),
      });
      return {
        ...(removed ? { removed: toExecutorDrain(removed) } : {}),
        stillDrainedExecutorIds: [...stillDrained],
      };
    }),
    ListExecutorDrains: unary(context, "ListExecutorDrains", (req) => {
      const namespace = validateNamespace(req.namespace);
      return { namespace, drains: drains.list(namespace).map(toExecutorDrain) };
    }),
    ListLeaders: unary(context, "ListLeaders", async () => ({
      leaders: (await service.routing.listLeaders()).map(toNamespaceLeader),
    })),
    MoveShards: unary(context, "MoveShards", async (req, signal, metadata) => {
      const namespace = validateNamespace(req.namespace);
      const to = validateExecutorId(req.toExecutorId, "to_executor_id");
      const requestId = validateRequestId(req.requestId);
      const keys = validateShardKeys(req.shardKeys, limits);
      // Any instance takes a move: one that does not lead forwards it to the leader.
      return await atLeader(async () => {
        const { moved, unchanged, planned } = await service.cells.moveShards(
          namespace,
          keys,
          to,
          signal,
          { dryRun: req.dryRun === true, requestId },
        );
        return {
          namespace,
          toExecutorId: to,
          movedShardKeys: [...moved],
          unchangedShardKeys: [...unchanged],
          dryRun: req.dryRun === true,
          plannedMoves: planned.map((m) => ({
            shardKey: m.shardKey,
            fromExecutorId: m.from,
            toExecutorId: m.to,
          })),
        };
      }, () => context.forwarder?.moveShards(req, metadata, signal));
    }, true),
    GetBlastRadius: unary(
      context,
      "GetBlastRadius",
      (req) => toBlastRadiusResponse(service.cells.blastRadius(validateNamespace(req.namespace))),
    ),
    WatchNamespaceState: (call) => {
      const signal = callSignal(call);
      (async () => {
        const request = decoded(call.request);
        const namespace = validateNamespace(request.namespace);
        const views = request.acceptDeltas
          ? service.routing.watchNamespaceDeltas(namespace, signal)
          : service.routing.watchNamespace(namespace, signal);
        // Pulled only as fast as the HTTP/2 stream drains (server_stream_sink.ts); the
        // server's definition passes the shared bytes through (fast_path/pre_encoded.ts).
        const encode = (view: Parameters<typeof watchBytes.bytesOf>[0]) =>
          watchBytes.bytesOf(view) as unknown as WatchNamespaceStateResponse;
        context.observer.watchStream?.(namespace, 1);
        try {
          await views.pipeTo(serverStreamSink(call, { encode, signal }), { signal });
        } finally {
          context.observer.watchStream?.(namespace, -1);
        }
      })().catch((error) => {
        if (signal.aborted) return; // the spectator went away: nobody to tell
        if (isUnexpected(error)) logger.error("watch failed", { error });
        call.emit("error", toGrpcError(error));
      });
    },
  };
}
