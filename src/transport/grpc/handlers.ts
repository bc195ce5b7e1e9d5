/**
 * gRPC handlers: decode a request, call the service, encode the answer, and
 * map errors in one place.
 *
 * @module
 */
import type * as grpc from "@grpc/grpc-js";
import { status as Status } from "@grpc/grpc-js";
import type { ServiceObserver } from "../../core/observer.ts";
import { InvalidArgumentError } from "../../core/errors.ts";
import { validateDrainTarget } from "../../core/executor_drain.ts";
import type { Logger } from "../../core/logger.ts";
import type { HeartbeatAnswer, ShardManager } from "../../service/mod.ts";
import {
  enumName,
  toBlastRadiusResponse,
  toExecutorDrain,
  toExecutorState,
  toInspectShardResponse,
  toNamespaceLeader,
  toWatchResponse,
} from "./convert.ts";
import {
  type ShardAssignment,
  type ShardDistributorAPIHandlers,
  type ShardDistributorExecutorAPIHandlers,
  shardDistributorService,
  type WatchNamespaceStateResponse,
} from "../../wire/proto.ts";
import { EncodedOnce } from "./pre_encoded.ts";
import { isUnexpected, toGrpcError } from "./status_map.ts";

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
    Promise.resolve().then(() => fn(call.request, signal)).then(
      (response) => {
        observer.rpc?.(method, "OK", performance.now() - started);
        callback(null, response);
      },
      (error) => {
        if (isUnexpected(error)) logger.error("request failed", { method, error });
        const { code, details } = toGrpcError(error);
        observer.rpc?.(method, Status[code] ?? String(code), performance.now() - started);
        callback({ code, details, message: details });
      },
    );
  };
}

function required(value: string, field: string): string {
  if (value === "") throw new InvalidArgumentError(field, "must not be empty");
  return value;
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
  return {
    GetShardOwner: unary(context, "GetShardOwner", async (req, signal) => {
      const ns = required(req.namespace, "namespace");
      return await manager.getShardOwner(ns, required(req.shardKey, "shard_key"), signal);
    }, true),
    InspectShard: unary(
      context,
      "InspectShard",
      (req) =>
        toInspectShardResponse(manager.inspectShard(
          required(req.namespace, "namespace"),
          required(req.shardKey, "shard_key"),
        )),
    ),
    GetNamespaceState: unary(context, "GetNamespaceState", (req) => {
      const namespace = required(req.namespace, "namespace");
      return { namespace, executors: manager.getNamespaceState(namespace).map(toExecutorState) };
    }),
    GetExecutorState: unary(context, "GetExecutorState", (req) => {
      const namespace = required(req.namespace, "namespace");
      const id = required(req.executorId, "executor_id");
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
      drainedShardKeys: await ops.drainShards(required(req.namespace, "namespace"), req.shardKeys),
    })),
    UndrainShards: unary(context, "UndrainShards", async (req) => ({
      undrainedShardKeys: await ops.undrainShards(
        required(req.namespace, "namespace"),
        req.shardKeys,
      ),
    })),
    GetDrainedShards: unary(context, "GetDrainedShards", (req) => {
      const namespace = required(req.namespace, "namespace");
      return { namespace, shardKeys: ops.drainedShards(namespace) };
    }),
    ForceResetNamespace: unary(context, "ForceResetNamespace", async (req) => ({
      deletedKeys: String(await ops.forceReset(required(req.namespace, "namespace"))),
    })),
    DrainExecutors: unary(context, "DrainExecutors", async (req) => {
      const namespace = required(req.namespace, "namespace");
      const target = validateDrainTarget(req.executorId, req.selector);
      return { drain: toExecutorDrain(await drains.drain(namespace, target, req.reason)) };
    }),
    UndrainExecutors: unary(context, "UndrainExecutors", async (req) => {
      const namespace = required(req.namespace, "namespace");
      const target = validateDrainTarget(req.executorId, req.selector);
      const { removed, stillDrained } = await drains.undrain(namespace, target);
      return {
        ...(removed ? { removed: toExecutorDrain(removed) } : {}),
        stillDrainedExecutorIds: [...stillDrained],
      };
    }),
    ListExecutorDrains: unary(context, "ListExecutorDrains", (req) => {
      const namespace = required(req.namespace, "namespace");
      return { namespace, drains: drains.list(namespace).map(toExecutorDrain) };
    }),
    ListLeaders: unary(context, "ListLeaders", async () => ({
      leaders: (await manager.listLeaders()).map(toNamespaceLeader),
    })),
    MoveShards: unary(context, "MoveShards", async (req, signal) => {
      const namespace = required(req.namespace, "namespace");
      const to = required(req.toExecutorId, "to_executor_id");
      const { moved, unchanged } = await manager.cells.moveShards(
        namespace,
        req.shardKeys,
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
      (req) =>
        toBlastRadiusResponse(manager.cells.blastRadius(required(req.namespace, "namespace"))),
    ),
    WatchNamespaceState: (call) => {
      const cancelled = new AbortController();
      call.on("cancelled", () => cancelled.abort());
      call.on("close", () => cancelled.abort());
      (async () => {
        const namespace = required(call.request.namespace, "namespace");
        const stream = call.request.acceptDeltas
          ? manager.watchNamespaceDeltas(namespace, cancelled.signal)
          : manager.watchNamespace(namespace, cancelled.signal);
        for await (const view of stream) {
          // The server's definition passes bytes through (see pre_encoded.ts).
          const bytes = watchBytes.bytesOf(view) as unknown as WatchNamespaceStateResponse;
          if (!call.write(bytes)) {
            await new Promise<void>((resolve) => {
              call.once("drain", resolve);
              cancelled.signal.addEventListener("abort", () => resolve(), { once: true });
            });
          }
        }
        if (!cancelled.signal.aborted) call.end();
      })().catch((error) => {
        if (isUnexpected(error)) logger.error("watch failed", { error });
        const { code, details } = toGrpcError(error);
        call.emit("error", { code, details, message: details });
      });
    },
  };
}

/** Handlers of `ShardDistributorExecutorAPI`. */
export function executorHandlers(
  manager: ShardManager,
  context: HandlerContext,
): ShardDistributorExecutorAPIHandlers {
  // Answers are reused until the executor's shards change: so is their wire form.
  const encoded = new WeakMap<HeartbeatAnswer, Record<string, ShardAssignment>>();
  return {
    Heartbeat: unary(context, "Heartbeat", async (req) => {
      const reports: Record<string, { status: string; load: number }> = {};
      for (const [key, report] of Object.entries(req.shardStatusReports)) {
        reports[key] = { status: enumName(report.status), load: report.shardLoad };
      }
      const answer = await manager.heartbeat({
        namespace: required(req.namespace, "namespace"),
        executorId: req.executorId,
        status: enumName(req.status),
        reports,
        metadata: req.metadata,
      });
      let shardAssignments = encoded.get(answer);
      if (!shardAssignments) {
        shardAssignments = {};
        for (const { shardKey, fencingToken } of answer.shards) {
          shardAssignments[shardKey] = {
            status: "ASSIGNMENT_STATUS_READY",
            fencingToken: String(fencingToken),
          };
        }
        encoded.set(answer, shardAssignments);
      }
      return { shardAssignments, migrationMode: "MIGRATION_MODE_ONBOARDED" };
    }),
  };
}
