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
import type { ShardManager } from "../../service/shard_manager.ts";
import {
  enumName,
  toExecutorDrain,
  toExecutorState,
  toInspectShardResponse,
  toNamespaceLeader,
  toWatchResponse,
} from "./convert.ts";
import type {
  ShardAssignment,
  ShardDistributorAPIHandlers,
  ShardDistributorExecutorAPIHandlers,
} from "../../wire/proto.ts";
import { isUnexpected, toGrpcError } from "./status_map.ts";

type Callback<Res> = (error: (Partial<grpc.ServiceError>) | null, value?: Res) => void;

/** What every handler shares: where to log and where to report. */
export interface HandlerContext {
  /** Where to log unexpected failures. */
  readonly logger: Logger;
  /** Receives each call's method, status and duration. */
  readonly observer: ServiceObserver;
}

/** Wraps an async function as a unary handler with the shared error mapping. */
function unary<Req, Res>(
  context: HandlerContext,
  method: string,
  fn: (request: Req, signal: AbortSignal) => Promise<Res> | Res,
): (call: grpc.ServerUnaryCall<Req, Res>, callback: Callback<Res>) => void {
  const { logger, observer } = context;
  return (call, callback) => {
    const started = performance.now();
    const aborted = new AbortController();
    call.on("cancelled", () => aborted.abort(new Error("Call cancelled")));
    Promise.resolve().then(() => fn(call.request, aborted.signal)).then(
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
  return {
    GetShardOwner: unary(context, "GetShardOwner", async (req, signal) => {
      const ns = required(req.namespace, "namespace");
      return await manager.getShardOwner(ns, required(req.shardKey, "shard_key"), signal);
    }),
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
          if (!call.write(toWatchResponse(view))) {
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
        appliedRevision: req.appliedRevision,
      });
      const shardAssignments: Record<string, ShardAssignment> = {};
      for (const { shardKey, fencingToken, releasing } of answer.shards) {
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
    }),
  };
}
