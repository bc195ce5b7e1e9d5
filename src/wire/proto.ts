/**
 * The shard distributor's wire contract, typed with the types generated from
 * `proto/` and loaded from the contract embedded beside them: `deno task
 * proto` writes both into `./gen/` (`contract.ts` holds every message, enum
 * and service as protobuf.js JSON, which protobuf.js's `Root.fromJSON` loads
 * and `service_definitions.ts` turns into gRPC service definitions). Nothing
 * reads a `.proto` file at run time, so programs need no read permission for
 * it and a packed SDK carries its contract inside.
 *
 * Messages are plain objects as `@grpc/proto-loader` would produce them with
 * {@linkcode PROTO_LOADER_OPTIONS} (the same protobuf.js calls, without the
 * loader): camelCase fields, enums as their names, 64-bit integers as decimal
 * strings, maps as records, and every field present on received messages (the
 * `__Output` types).
 *
 * @example Call GetShardOwner
 * ```ts ignore
 * import * as grpc from "@grpc/grpc-js";
 * import { ShardDistributorAPIClient } from "./proto.ts";
 *
 * const client = new ShardDistributorAPIClient("127.0.0.1:7943", grpc.credentials.createInsecure());
 * client.getShardOwner({ namespace: "orders", shardKey: "42" }, (error, response) => {
 *   if (error) throw error;
 *   console.log(response?.owner, response?.metadata);
 * });
 * ```
 *
 * @module
 */
import { grpc, protobuf } from "./packages.ts";
import { contract } from "./gen/contract.ts";
import type { MessageTypeDefinition } from "./loader_types.ts";
import { messageCodec, serviceDefinition } from "./service_definitions.ts";
import type { ProtoGrpcType } from "./gen/service.ts";
import type {
  ShardDistributorAPIClient as ShardDistributorAPIClientInstance,
  ShardDistributorAPIDefinition,
} from "./gen/uber/cadence/sharddistributor/v1/ShardDistributorAPI.ts";
import type {
  ShardDistributorExecutorAPIClient as ShardDistributorExecutorAPIClientInstance,
  ShardDistributorExecutorAPIDefinition,
} from "./gen/uber/cadence/sharddistributor/v1/ShardDistributorExecutorAPI.ts";

/**
 * How `.proto` messages map to JavaScript objects. The generated types in
 * `./gen/` assume exactly these options (`scripts/gen_proto.ts` passes the
 * same ones to the generator, and a test compares them).
 *
 * - `keepCase: false`: fields are camelCase (`shard_key` is `shardKey`).
 * - `longs: String`: `int64` values arrive as decimal strings.
 * - `enums: String`: enum values arrive as their names.
 * - `defaults: true`: received messages have every field, unset ones at their
 *   default (`""`, `"0"`, `{}`, `[]`, the zero enum name, `null` for messages).
 * - `oneofs: true`: each oneof gets a virtual field naming the set member.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { PROTO_LOADER_OPTIONS } from "./proto.ts";
 *
 * assert.equal(PROTO_LOADER_OPTIONS.longs, String);
 * ```
 */
export const PROTO_LOADER_OPTIONS: {
  readonly keepCase: false;
  readonly longs: StringConstructor;
  readonly enums: StringConstructor;
  readonly defaults: true;
  readonly oneofs: true;
} = Object.freeze({
  keepCase: false,
  longs: String,
  enums: String,
  defaults: true,
  oneofs: true,
});

/** The contract's package. */
const V1_PACKAGE = "uber.cadence.sharddistributor.v1";

const root = protobuf.Root.fromJSON(contract as protobuf.INamespace);
root.resolveAll();

/**
 * The codec of message `fullName` of the contract (e.g.
 * `uber.cadence.sharddistributor.v1.NamespaceNotFoundError`), decoding with
 * {@linkcode PROTO_LOADER_OPTIONS}. Throws `TypeError` when the contract
 * defines no such message.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { contractMessage } from "./proto.ts";
 *
 * const codec = contractMessage<{ namespace?: string }, { namespace: string }>(
 *   "uber.cadence.sharddistributor.v1.NamespaceNotFoundError",
 * );
 * assert.deepEqual(codec.deserialize(codec.serialize({ namespace: "a" })), { namespace: "a" });
 * assert.throws(() => contractMessage("uber.Nope"), TypeError);
 * ```
 */
export function contractMessage<InputType = Record<string, unknown>, OutputType = InputType>(
  fullName: string,
): MessageTypeDefinition<InputType, OutputType> {
  let type: protobuf.Type;
  try {
    type = root.lookupType(fullName);
  } catch {
    throw new TypeError(`The contract defines no message ${fullName}`);
  }
  return messageCodec(type, PROTO_LOADER_OPTIONS);
}

function client<T>(service: string): T {
  const definition = serviceDefinition(root, `${V1_PACKAGE}.${service}`, PROTO_LOADER_OPTIONS);
  // What grpc.loadPackageDefinition makes of a service: a client class named
  // after it, with the definition as its `service`.
  return grpc.makeClientConstructor(definition, service) as T;
}

type V1 = ProtoGrpcType["uber"]["cadence"]["sharddistributor"]["v1"];
const v1 = {
  ShardDistributorAPI: client<V1["ShardDistributorAPI"]>("ShardDistributorAPI"),
  ShardDistributorExecutorAPI: client<V1["ShardDistributorExecutorAPI"]>(
    "ShardDistributorExecutorAPI",
  ),
};

/**
 * Client constructor for `ShardDistributorAPI` (spectators and operators).
 * Methods exist in both the proto's spelling (`GetShardOwner`) and camelCase
 * (`getShardOwner`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import * as grpc from "@grpc/grpc-js";
 * import { ShardDistributorAPIClient } from "./proto.ts";
 *
 * // Connects lazily: nothing is dialled until the first call.
 * const client = new ShardDistributorAPIClient("127.0.0.1:7943", grpc.credentials.createInsecure());
 * assert.equal(typeof client.getShardOwner, "function");
 * assert.equal(typeof client.GetShardOwner, "function");
 * client.close();
 * ```
 */
export const ShardDistributorAPIClient: V1["ShardDistributorAPI"] = v1.ShardDistributorAPI;
/** An instance of {@linkcode ShardDistributorAPIClient}. */
export type ShardDistributorAPIClient = ShardDistributorAPIClientInstance;

/**
 * Client constructor for `ShardDistributorExecutorAPI` (executors'
 * heartbeats).
 *
 * @example
 * ```ts ignore
 * import * as grpc from "@grpc/grpc-js";
 * import { ShardDistributorExecutorAPIClient } from "./proto.ts";
 *
 * const client = new ShardDistributorExecutorAPIClient("127.0.0.1:7943", grpc.credentials.createInsecure());
 * client.heartbeat(
 *   { namespace: "orders", executorId: "exec-1", status: "EXECUTOR_STATUS_ACTIVE" },
 *   (error, response) => console.log(error ?? response?.shardAssignments),
 * );
 * ```
 */
export const ShardDistributorExecutorAPIClient: V1["ShardDistributorExecutorAPI"] =
  v1.ShardDistributorExecutorAPI;
/** An instance of {@linkcode ShardDistributorExecutorAPIClient}. */
export type ShardDistributorExecutorAPIClient = ShardDistributorExecutorAPIClientInstance;

/**
 * Service definition of `ShardDistributorAPI`, for `grpc.Server.addService`.
 *
 * @example
 * ```ts
 * import * as grpc from "@grpc/grpc-js";
 * import { type ShardDistributorAPIHandlers, shardDistributorService } from "./proto.ts";
 *
 * const handlers = {
 *   GetShardOwner: (call, callback) => callback(null, { owner: `owner of ${call.request.shardKey}` }),
 * } satisfies Partial<ShardDistributorAPIHandlers>; // methods left out answer UNIMPLEMENTED
 * const server = new grpc.Server();
 * server.addService(shardDistributorService, handlers);
 * server.forceShutdown();
 * ```
 */
export const shardDistributorService: ShardDistributorAPIDefinition =
  v1.ShardDistributorAPI.service;

/**
 * Service definition of `ShardDistributorExecutorAPI`, for
 * `grpc.Server.addService`.
 *
 * @example
 * ```ts
 * import * as grpc from "@grpc/grpc-js";
 * import { executorService, type ShardDistributorExecutorAPIHandlers } from "./proto.ts";
 *
 * const handlers = {
 *   Heartbeat: (_call, callback) => callback(null, { shardAssignments: {} }),
 * } satisfies Partial<ShardDistributorExecutorAPIHandlers>; // WatchExecutorAssignment: UNIMPLEMENTED
 * const server = new grpc.Server();
 * server.addService(executorService, handlers);
 * server.forceShutdown();
 * ```
 */
export const executorService: ShardDistributorExecutorAPIDefinition =
  v1.ShardDistributorExecutorAPI.service;

/** The shape of everything the `.proto` files define, as loaded. */
export type { ProtoGrpcType };

/**
 * Server-side types: the handler maps a server implements (handlers receive
 * `__Output` requests and send plain responses) and the typed service
 * definitions.
 */
export type {
  ShardDistributorAPIDefinition,
  ShardDistributorAPIHandlers,
} from "./gen/uber/cadence/sharddistributor/v1/ShardDistributorAPI.ts";
export type {
  ShardDistributorExecutorAPIDefinition,
  ShardDistributorExecutorAPIHandlers,
} from "./gen/uber/cadence/sharddistributor/v1/ShardDistributorExecutorAPI.ts";

/*
 * Enums: `ExecutorStatus`, `ShardStatus`, `AssignmentStatus`, `MigrationMode`.
 * Each name is both a value (an object of the enum's names, e.g.
 * `ExecutorStatus.EXECUTOR_STATUS_ACTIVE`) and the type for messages being
 * sent (it also accepts the numbers); `<Enum>__Output` is the union of names
 * that received messages carry.
 */
export * from "./gen/uber/cadence/sharddistributor/v1/ExecutorStatus.ts";
export * from "./gen/uber/cadence/sharddistributor/v1/ShardStatus.ts";
export * from "./gen/uber/cadence/sharddistributor/v1/AssignmentStatus.ts";
export * from "./gen/uber/cadence/sharddistributor/v1/MigrationMode.ts";

/*
 * Messages. Each `<Message>` type is for messages being sent (every field
 * optional, enums as names or numbers, int64 as number, string or Long);
 * each `<Message>__Output` type is for received messages (every field
 * present, enums as names, int64 as decimal strings, unset message fields
 * `null`). Their documentation comes from the `.proto` comments.
 */
export type * from "./gen/uber/cadence/sharddistributor/v1/HeartbeatRequest.ts";
export type * from "./gen/uber/cadence/sharddistributor/v1/HeartbeatResponse.ts";
export type * from "./gen/uber/cadence/sharddistributor/v1/ShardStatusReport.ts";
export type * from "./gen/uber/cadence/sharddistributor/v1/ShardAssignment.ts";
export type * from "./gen/uber/cadence/sharddistributor/v1/KeyRange.ts";
export type * from "./gen/uber/cadence/sharddistributor/v1/KeyLoad.ts";
export type * from "./gen/uber/cadence/sharddistributor/v1/WatchExecutorAssignmentRequest.ts";
export type * from "./gen/uber/cadence/sharddistributor/v1/WatchExecutorAssignmentResponse.ts";
export type * from "./gen/uber/cadence/sharddistributor/v1/GetShardOwnerRequest.ts";
export type * from "./gen/uber/cadence/sharddistributor/v1/GetShardOwnerResponse.ts";
export type * from "./gen/uber/cadence/sharddistributor/v1/InspectShardRequest.ts";
export type * from "./gen/uber/cadence/sharddistributor/v1/InspectShardResponse.ts";
export type * from "./gen/uber/cadence/sharddistributor/v1/GetNamespaceStateRequest.ts";
export type * from "./gen/uber/cadence/sharddistributor/v1/GetNamespaceStateResponse.ts";
export type * from "./gen/uber/cadence/sharddistributor/v1/NamespaceExecutorState.ts";
export type * from "./gen/uber/cadence/sharddistributor/v1/AssignedShardState.ts";
export type * from "./gen/uber/cadence/sharddistributor/v1/GetExecutorStateRequest.ts";
export type * from "./gen/uber/cadence/sharddistributor/v1/GetExecutorStateResponse.ts";
export type * from "./gen/uber/cadence/sharddistributor/v1/WatchNamespaceStateRequest.ts";
export type * from "./gen/uber/cadence/sharddistributor/v1/WatchNamespaceStateResponse.ts";
export type * from "./gen/uber/cadence/sharddistributor/v1/ExecutorInfo.ts";
export type * from "./gen/uber/cadence/sharddistributor/v1/Shard.ts";
export type * from "./gen/uber/cadence/sharddistributor/v1/ShardOwnerChange.ts";
export type * from "./gen/uber/cadence/sharddistributor/v1/ShardOwner.ts";
export type * from "./gen/uber/cadence/sharddistributor/v1/ListNamespacesRequest.ts";
export type * from "./gen/uber/cadence/sharddistributor/v1/ListNamespacesResponse.ts";
export type * from "./gen/uber/cadence/sharddistributor/v1/NamespaceConfig.ts";
export type * from "./gen/uber/cadence/sharddistributor/v1/DrainShardsRequest.ts";
export type * from "./gen/uber/cadence/sharddistributor/v1/DrainShardsResponse.ts";
export type * from "./gen/uber/cadence/sharddistributor/v1/UndrainShardsRequest.ts";
export type * from "./gen/uber/cadence/sharddistributor/v1/UndrainShardsResponse.ts";
export type * from "./gen/uber/cadence/sharddistributor/v1/GetDrainedShardsRequest.ts";
export type * from "./gen/uber/cadence/sharddistributor/v1/GetDrainedShardsResponse.ts";
export type * from "./gen/uber/cadence/sharddistributor/v1/ForceResetNamespaceRequest.ts";
export type * from "./gen/uber/cadence/sharddistributor/v1/ForceResetNamespaceResponse.ts";
export type * from "./gen/uber/cadence/sharddistributor/v1/DrainExecutorsRequest.ts";
export type * from "./gen/uber/cadence/sharddistributor/v1/DrainExecutorsResponse.ts";
export type * from "./gen/uber/cadence/sharddistributor/v1/UndrainExecutorsRequest.ts";
export type * from "./gen/uber/cadence/sharddistributor/v1/UndrainExecutorsResponse.ts";
export type * from "./gen/uber/cadence/sharddistributor/v1/ListExecutorDrainsRequest.ts";
export type * from "./gen/uber/cadence/sharddistributor/v1/ListExecutorDrainsResponse.ts";
export type * from "./gen/uber/cadence/sharddistributor/v1/ExecutorDrain.ts";
export type * from "./gen/uber/cadence/sharddistributor/v1/CanStopExecutorsRequest.ts";
export type * from "./gen/uber/cadence/sharddistributor/v1/CanStopExecutorsResponse.ts";
export type * from "./gen/uber/cadence/sharddistributor/v1/CanStopNamespace.ts";
export type * from "./gen/uber/cadence/sharddistributor/v1/CanStopExecutor.ts";
export type * from "./gen/uber/cadence/sharddistributor/v1/ListLeadersRequest.ts";
export type * from "./gen/uber/cadence/sharddistributor/v1/ListLeadersResponse.ts";
export type * from "./gen/uber/cadence/sharddistributor/v1/NamespaceLeader.ts";
export type * from "./gen/uber/cadence/sharddistributor/v1/MoveShardsRequest.ts";
export type * from "./gen/uber/cadence/sharddistributor/v1/MoveShardsResponse.ts";
export type * from "./gen/uber/cadence/sharddistributor/v1/ChangeSliceRequest.ts";
export type * from "./gen/uber/cadence/sharddistributor/v1/ChangeSliceResponse.ts";
export type * from "./gen/uber/cadence/sharddistributor/v1/ChangedSlice.ts";
export type * from "./gen/uber/cadence/sharddistributor/v1/SliceChangeKind.ts";
export type * from "./gen/uber/cadence/sharddistributor/v1/GetBlastRadiusRequest.ts";
export type * from "./gen/uber/cadence/sharddistributor/v1/GetBlastRadiusResponse.ts";
export type * from "./gen/uber/cadence/sharddistributor/v1/NamespaceDefinition.ts";
export type * from "./gen/uber/cadence/sharddistributor/v1/CreateNamespaceRequest.ts";
export type * from "./gen/uber/cadence/sharddistributor/v1/CreateNamespaceResponse.ts";
export type * from "./gen/uber/cadence/sharddistributor/v1/UpdateNamespaceRequest.ts";
export type * from "./gen/uber/cadence/sharddistributor/v1/UpdateNamespaceResponse.ts";
export type * from "./gen/uber/cadence/sharddistributor/v1/DeleteNamespaceRequest.ts";
export type * from "./gen/uber/cadence/sharddistributor/v1/DeleteNamespaceResponse.ts";
export type * from "./gen/uber/cadence/sharddistributor/v1/GetNamespaceDefinitionRequest.ts";
export type * from "./gen/uber/cadence/sharddistributor/v1/GetNamespaceDefinitionResponse.ts";
export type * from "./gen/uber/cadence/sharddistributor/v1/PlannedMove.ts";
export type * from "./gen/uber/cadence/sharddistributor/v1/ListNamespaceEventsRequest.ts";
export type * from "./gen/uber/cadence/sharddistributor/v1/ListNamespaceEventsResponse.ts";
export type * from "./gen/uber/cadence/sharddistributor/v1/LiftBrakeRequest.ts";
export type * from "./gen/uber/cadence/sharddistributor/v1/LiftBrakeResponse.ts";
export type * from "./gen/uber/cadence/sharddistributor/v1/GetBrakeRequest.ts";
export type * from "./gen/uber/cadence/sharddistributor/v1/GetBrakeResponse.ts";
export type * from "./gen/uber/cadence/sharddistributor/v1/HistoryEvent.ts";
/* Error details (see `error_details.ts` for how they travel). */
export type * from "./gen/uber/cadence/sharddistributor/v1/NamespaceNotFoundError.ts";
export type * from "./gen/uber/cadence/sharddistributor/v1/ShardNotFoundError.ts";
export type * from "./gen/uber/cadence/sharddistributor/v1/ShardDrainedError.ts";
export type * from "./gen/uber/cadence/sharddistributor/v1/EphemeralShardLimitExceededError.ts";

/*
 * `google.protobuf.Timestamp` (`NamespaceExecutorState.lastHeartbeat`):
 * `{ seconds, nanos }` where `seconds` is an int64, so a decimal string on
 * received messages.
 */
export type * from "./gen/google/protobuf/Timestamp.ts";
