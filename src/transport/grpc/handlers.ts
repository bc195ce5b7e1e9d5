/**
 * gRPC handlers: decode a request, call the service, encode the answer, and
 * map errors in one place (`status_map.ts`: code, message and typed detail
 * trailer, the same for unary calls and the watch stream).
 *
 * @module
 */
import type * as grpc from "@grpc/grpc-js";
import { status as Status } from "@grpc/grpc-js";
import type { ServiceObserver } from "../../core/observer.ts";
import { validateDrainTarget } from "../../core/executor_drain.ts";
import {
  validateExecutorId,
  validateMetadata,
  validateNamespace,
  validateReason,
  validateShardKey,
  validateShardKeys,
} from "../../limits/validate_request.ts";
import type { Logger } from "../../core/logger.ts";
import type { HeartbeatAnswer, ShardManager } from "../../service/mod.ts";
import {
  enumValue,
  toBlastRadiusResponse,
  toExecutorDrain,
  toExecutorState,
  toInspectShardResponse,
  toNamespaceLeader,
  toShardOwners,
  toWatchResponse,
} from "./convert.ts";
import {
  executorService,
  type HeartbeatResponse,
  type ShardAssignment,
  type ShardDistributorAPIHandlers,
  type ShardDistributorExecutorAPIHandlers,
  shardDistributorService,
  type WatchNamespaceStateResponse,
} from "../../wire/proto.ts";
import { EncodedByStamp, EncodedOnce } from "./pre_encoded.ts";
import { serverStreamSink } from "./server_stream_sink.ts";
import { isUnexpected, toGrpcError } from "./status_map.ts";
import { decoded } from "./malformed.ts";

type Callback<Res> = (error: (Partial<grpc.ServiceError>) | null, value?: Res) => void;

/** What every handler shares: where to log and where to report. */
export interface HandlerContext {
  /** Where to log unexpected failures. */
  readonly logger: Logger;
  /** Receives each call's method, status and duration. */
  readonly observer: ServiceObserver;
}

const NEVER_ABORTED = new AbortController().signal;

/**
 * Wraps an async function as a unary handler with the shared error mapping.
 * Only handlers that declare `cancellable` get a signal that aborts when the
 * client cancels; the others (the hot Heartbeat path) skip its cost.
 */
function unary<Req, Res>(
  context: HandlerContext,
  method: string,
  fn: (request: Req, signal: AbortSignal) => Promise<Res> | Res,
  cancellable = false,
): (call: grpc.ServerUnaryCall<Req, Res>, callback: Callback<Res>) => void {
  const { logger, observer } = context;
  return (call, callback) => {
    const started = performance.now();
    let signal = NEVER_ABORTED;
    if (cancellable) {
      const aborted = new AbortController();
      call.on("cancelled", () => aborted.abort(new Error("Call cancelled")));
      signal = aborted.signal;
    }
    Promise.resolve().then(() => fn(decoded(call.request), signal)).then(
      (response) => {
        observer.rpc?.(method, "OK", performance.now() - started);
        callback(null, response);
      },
      (error) => {
        if (isUnexpected(error)) logger.error("request failed", { method, error });
        const status = toGrpcError(error);
        observer.rpc?.(
          method,
          Status[status.code] ?? String(status.code),
          performance.now() - started,
        );
        callback(status);
      },
    );
  };
}

/** Checks a drain target's executor id or selector against the request limits. */
function drainTarget(req: { executorId: string; selector: Record<string, string> }) {
  if (req.executorId !== "") validateExecutorId(req.executorId);
  validateMetadata(req.selector, "selector");
  return validateDrainTarget(req.executorId, req.selector);
}

/** Handlers of `ShardDistributorAPI`. */
export function routingHandlers(
  manager: ShardManager,
  context: HandlerContext,
): ShardDistributorAPIHandlers {
  const { logger } = context;
  const ops = manager.operations;
  const drains = manager.executorDrains;
  // Subscribers at the same point share one view: encode it once for all of them.
  const serialize = shardDistributorService.WatchNamespaceState.responseSerialize;
  const watchBytes = new EncodedOnce((view: Parameters<typeof toWatchResponse>[0]) =>
    serialize(toWatchResponse(view))
  );
  const { limits } = manager;
  const shardKey = (key: string) => validateShardKey(key, "shard_key", limits);
  return {
    GetShardOwner: unary(context, "GetShardOwner", async (req, signal) => {
      const ns = validateNamespace(req.namespace);
      const view = await manager.getShardOwner(ns, shardKey(req.shardKey), signal);
      return {
        owner: view.owner,
        namespace: view.namespace,
        metadata: view.metadata,
        owners: toShardOwners(view.owners),
      };
    }, true),
    InspectShard: unary(
      context,
      "InspectShard",
      (req) =>
        toInspectShardResponse(manager.inspectShard(
          validateNamespace(req.namespace),
          shardKey(req.shardKey),
        )),
    ),
    GetNamespaceState: unary(context, "GetNamespaceState", (req) => {
      const namespace = validateNamespace(req.namespace);
      return {
        namespace,
        executors: manager.getNamespaceState(namespace).map(toExecutorState),
        shardMoves: manager.getShardMoves(namespace),
      };
    }),
    GetExecutorState: unary(context, "GetExecutorState", (req) => {
      const namespace = validateNamespace(req.namespace);
      const id = validateExecutorId(req.executorId);
      return { namespace, executor: toExecutorState(manager.getExecutorState(namespace, id)) };
    }),
    ListNamespaces: unary(context, "ListNamespaces", () => ({
      namespaces: manager.listNamespaces().map((n) => ({
        name: n.name,
        type: n.type,
        mode: n.mode,
        shardNum: String(n.shardNum),
      })),
    })),
    DrainShards: unary(context, "DrainShards", async (req) => ({
      drainedShardKeys: await ops.drainShards(
        validateNamespace(req.namespace),
        validateShardKeys(req.shardKeys, limits),
      ),
    })),
    UndrainShards: unary(context, "UndrainShards", async (req) => ({
      undrainedShardKeys: await ops.undrainShards(
        validateNamespace(req.namespace),
        validateShardKeys(req.shardKeys, limits),
      ),
    })),
    GetDrainedShards: unary(context, "GetDrainedShards", (req) => {
      const namespace = validateNamespace(req.namespace);
      return { namespace, shardKeys: ops.drainedShards(namespace) };
    }),
    ForceResetNamespace: unary(context, "ForceResetNamespace", async (req) => ({
      deletedKeys: String(await ops.forceReset(validateNamespace(req.namespace))),
    })),
    DrainExecutors: unary(context, "DrainExecutors", async (req) => {
      const namespace = validateNamespace(req.namespace);
      const target = drainTarget(req);
      const reason = validateReason(req.reason);
      return { drain: toExecutorDrain(await drains.drain(namespace, target, reason)) };
    }),
    UndrainExecutors: unary(context, "UndrainExecutors", async (req) => {
      const namespace = validateNamespace(req.namespace);
      const target = drainTarget(req);
      const { removed, stillDrained } = await drains.undrain(namespace, target);
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
      leaders: (await manager.listLeaders()).map(toNamespaceLeader),
    })),
    MoveShards: unary(context, "MoveShards", async (req, signal) => {
      const namespace = validateNamespace(req.namespace);
      const to = validateExecutorId(req.toExecutorId, "to_executor_id");
      const { moved, unchanged } = await manager.cells.moveShards(
        namespace,
        validateShardKeys(req.shardKeys, limits),
        to,
        signal,
      );
      return {
        namespace,
        toExecutorId: to,
        movedShardKeys: [...moved],
        unchangedShardKeys: [...unchanged],
      };
    }, true),
    GetBlastRadius: unary(
      context,
      "GetBlastRadius",
      (req) => toBlastRadiusResponse(manager.cells.blastRadius(validateNamespace(req.namespace))),
    ),
    WatchNamespaceState: (call) => {
      const cancelled = new AbortController();
      call.on("cancelled", () => cancelled.abort());
      call.on("close", () => cancelled.abort());
      const { signal } = cancelled;
      (async () => {
        const request = decoded(call.request);
        const namespace = validateNamespace(request.namespace);
        const views = request.acceptDeltas
          ? manager.watchNamespaceDeltas(namespace, signal)
          : manager.watchNamespace(namespace, signal);
        // Pulled only as fast as the HTTP/2 stream drains (server_stream_sink.ts); the
        // server's definition passes the shared bytes through (pre_encoded.ts).
        const encode = (view: Parameters<typeof watchBytes.bytesOf>[0]) =>
          watchBytes.bytesOf(view) as unknown as WatchNamespaceStateResponse;
        await views.pipeTo(serverStreamSink(call, { encode, signal }), { signal });
      })().catch((error) => {
        if (signal.aborted) return; // the spectator went away: nobody to tell
        if (isUnexpected(error)) logger.error("watch failed", { error });
        call.emit("error", toGrpcError(error));
      });
    },
  };
}

/** Handlers of `ShardDistributorExecutorAPI`. */
export function executorHandlers(
  manager: ShardManager,
  context: HandlerContext,
): ShardDistributorExecutorAPIHandlers {
  // An answer's wire form is kept until the executor's shards change (see pre_encoded.ts).
  const serialize = executorService.Heartbeat.responseSerialize;
  const answers = new EncodedByStamp();
  return {
    Heartbeat: unary(context, "Heartbeat", async (req) => {
      const reports: Record<string, { status: string | number; load: number }> = {};
      for (const [key, report] of Object.entries(req.shardStatusReports)) {
        reports[key] = { status: enumValue(report.status), load: report.shardLoad };
      }
      const { namespace } = req; // validated with the rest of the heartbeat, by the service
      const answer = await manager.heartbeat({
        namespace,
        executorId: req.executorId,
        status: enumValue(req.status),
        reports,
        metadata: req.metadata,
        appliedRevision: req.appliedRevision,
      });
      const key = `${namespace}\u0000${req.executorId}`;
      const encode = () => serialize(toHeartbeatResponse(answer));
      const bytes = answer.stamp === undefined
        ? encode()
        : answers.bytesOf(key, answer.stamp, encode);
      return bytes as unknown as HeartbeatResponse;
    }),
  };
}

function toHeartbeatResponse(answer: HeartbeatAnswer): HeartbeatResponse {
  const shardAssignments: Record<string, ShardAssignment> = {};
  for (const { shardKey, fencingToken, releasing } of answer.shards()) {
    shardAssignments[shardKey] = {
      status: releasing ? "ASSIGNMENT_STATUS_RELEASING" : "ASSIGNMENT_STATUS_READY",
      fencingToken: String(fencingToken),
    };
  }
  const ownership = answer.exclusive
    ? {
      ownershipMode: "OWNERSHIP_MODE_EXCLUSIVE" as const,
      ownershipLeaseMs: String(answer.exclusive.leaseMs),
      revision: String(answer.exclusive.revision),
    }
    : { ownershipMode: "OWNERSHIP_MODE_AVAILABLE" as const };
  return { shardAssignments, migrationMode: "MIGRATION_MODE_ONBOARDED", ...ownership };
}
