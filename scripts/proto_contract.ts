/**
 * The wire contract as data: `proto/` parsed once by protobuf.js at
 * `deno task proto` time and written as a TypeScript module
 * (`src/wire/gen/contract.ts`) holding protobuf.js's JSON form, which
 * protobuf.js's `Root.fromJSON` loads (`src/wire/proto.ts`, for the SDKs) and
 * `@grpc/proto-loader`'s `fromJSON` turns into the same package definition
 * that `loadSync` makes of the files (the server's reflection). So neither the SDKs nor the server read
 * `.proto` files at run time, and a packed SDK carries its contract inside.
 *
 * @example Build the contract of `proto/` and look up a message
 * ```ts
 * import assert from "node:assert/strict";
 * import { fileURLToPath } from "node:url";
 * import { contractJson, contractModule } from "./proto_contract.ts";
 *
 * const protoRoot = fileURLToPath(new URL("../proto", import.meta.url));
 * const json = contractJson(protoRoot, ["uber/cadence/sharddistributor/v1/executor.proto"], false);
 * assert.ok(JSON.stringify(json).includes('"HeartbeatRequest"'));
 * assert.match(contractModule(json, "// generated"), /^export const contract: ContractJson = \{$/m);
 * ```
 *
 * @module
 */
import { join } from "node:path";
import protobuf from "protobufjs";

/** A JSON value, as the contract module declares it. */
export type Json = string | number | boolean | null | readonly Json[] | {
  readonly [key: string]: Json;
};

/**
 * protobuf.js's JSON form of `files` (paths relative to `protoRoot`) and of
 * the well-known types they import, parsed with the loader's `keepCase`
 * option and without comments.
 */
export function contractJson(
  protoRoot: string,
  files: readonly string[],
  keepCase: boolean,
): { readonly [key: string]: Json } {
  const root = new protobuf.Root();
  const fallback = root.resolvePath.bind(root);
  // Imports resolve under proto/ first, then to protobuf.js's bundled
  // well-known types (google/protobuf/*.proto), as proto-loader's includeDirs do.
  root.resolvePath = (origin, target) => {
    const inTree = join(protoRoot, target);
    try {
      Deno.statSync(inTree);
      return inTree;
    } catch {
      return fallback(origin, target);
    }
  };
  root.loadSync(files.map((file) => join(protoRoot, file)), { keepCase });
  root.resolveAll();
  return JSON.parse(JSON.stringify(root.toJSON({ keepComments: false })));
}

/** The text of `src/wire/gen/contract.ts` for `json`, starting with the line `header`. */
export function contractModule(json: { readonly [key: string]: Json }, header: string): string {
  return `${header}
// The wire contract of proto/ as protobuf.js JSON (comments left out), loaded
// by src/wire/proto.ts with protobuf.js's Root.fromJSON: no .proto file is read
// at run time.

/** A JSON value. */
export type Json = string | number | boolean | null | readonly Json[] | { readonly [key: string]: Json };
/** protobuf.js's JSON form of a set of .proto files. */
export type ContractJson = { readonly [key: string]: Json };

/** Every message, enum and service of proto/ (and the well-known types they import). */
export const contract: ContractJson = ${JSON.stringify(json, null, 2)};
`;
}
