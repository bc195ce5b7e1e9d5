/**
 * The npm packages the wire contract and the SDKs are built on, named here
 * once by their full `npm:` specifiers. The SDKs are imported by path or URL
 * from other projects, which never see this repository's import map, so
 * every module an SDK loads names its packages in a form that resolves
 * anywhere (`tests/sdk_package_test.ts` checks that these ranges equal
 * deno.json's, so the server and the SDKs share one copy of each package).
 *
 * `protobuf` is protobuf.js's light build (reflection, encoding and
 * decoding, no `.proto` parser): the contract is embedded as JSON.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { grpc, protobuf } from "./packages.ts";
 *
 * assert.equal(typeof grpc.credentials.createInsecure, "function");
 * assert.equal(typeof protobuf.Root.fromJSON, "function");
 * ```
 *
 * @module
 */
export * as grpc from "npm:@grpc/grpc-js@^1.14.0";
export { default as protobuf } from "npm:protobufjs@^7.5.0/light.js";
