/**
 * The contract as `@grpc/proto-loader` loads it, file descriptors included,
 * for the server's reflection service and for tests that compare it with
 * the `.proto` files. Server side only: the SDKs build what they need
 * without the loader (`proto.ts`, `service_definitions.ts`), so they do
 * not depend on it.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { packageDefinition } from "./package_definition.ts";
 *
 * assert.ok("uber.cadence.sharddistributor.v1.ShardDistributorAPI" in packageDefinition);
 * ```
 *
 * @module
 */
import * as protoLoader from "@grpc/proto-loader";
import { contract } from "./gen/contract.ts";
import { PROTO_LOADER_OPTIONS } from "./proto.ts";

/**
 * Every message, enum and service of the contract, with the options the SDKs
 * decode with ({@linkcode PROTO_LOADER_OPTIONS}). The same, file descriptors
 * included, as `loadSync` makes of `proto/` (`tests/proto_codegen_test.ts`).
 */
export const packageDefinition: protoLoader.PackageDefinition = protoLoader.fromJSON(
  contract as Parameters<typeof protoLoader.fromJSON>[0],
  PROTO_LOADER_OPTIONS,
);
