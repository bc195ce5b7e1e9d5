/**
 * Upstream's view of the wire, for tests: the compiled images of upstream's
 * contract (`proto/upstream/`) loaded with `@grpc/proto-loader`, and a
 * `google.rpc.Status` decoder built by protobufjs (through proto-loader's
 * `fromJSON`) rather than by this project's own hand-written one.
 *
 * @module
 */
import { Buffer } from "node:buffer";
import * as grpc from "@grpc/grpc-js";
import * as protoLoader from "@grpc/proto-loader";

/** Images of upstream's contract, by name. */
export const UPSTREAM_IMAGES = {
  shardManager: new URL("../../proto/upstream/shard_manager.binpb", import.meta.url),
  cadence: new URL("../../proto/upstream/cadence.binpb", import.meta.url),
} as const;

/** How upstream's messages are decoded here: snake_case as in the .proto, int64 as strings. */
const OPTIONS: protoLoader.Options = {
  keepCase: true,
  longs: String,
  enums: String,
  defaults: true,
};

/** Loads one of upstream's images as a package definition. */
export async function loadUpstream(
  image: keyof typeof UPSTREAM_IMAGES,
): Promise<protoLoader.PackageDefinition> {
  return protoLoader.loadFileDescriptorSetFromBuffer(
    Buffer.from(await Deno.readFile(UPSTREAM_IMAGES[image])),
    OPTIONS,
  );
}

/** Decodes `bytes` as message `name` (full name) of `definition`. */
export function decodeMessage(
  definition: protoLoader.PackageDefinition,
  name: string,
  bytes: Uint8Array,
): Record<string, unknown> {
  const type = definition[name];
  if (type?.format !== "Protocol Buffer 3 DescriptorProto") {
    throw new Error(`No message ${name} in the definition`);
  }
  return (type as protoLoader.MessageTypeDefinition<unknown, Record<string, unknown>>)
    .deserialize(bytes as Buffer);
}

/** `google.rpc.Status` and `google.protobuf.Any`, declared as protobufjs JSON. */
const RPC_STATUS = protoLoader.fromJSON({
  nested: {
    google: {
      nested: {
        rpc: {
          nested: {
            Status: {
              fields: {
                code: { type: "int32", id: 1 },
                message: { type: "string", id: 2 },
                details: { rule: "repeated", type: "google.protobuf.Any", id: 3 },
              },
            },
          },
        },
        protobuf: {
          nested: {
            Any: {
              fields: { type_url: { type: "string", id: 1 }, value: { type: "bytes", id: 2 } },
            },
          },
        },
      },
    },
  },
}, { keepCase: true, defaults: true });

/** A `google.rpc.Status` as protobufjs decodes it. */
export interface DecodedStatus {
  /** Status code. */
  readonly code: number;
  /** Message. */
  readonly message: string;
  /** Details, packed. */
  readonly details: readonly { readonly type_url: string; readonly value: Uint8Array }[];
}

/** Decodes `grpc-status-details-bin` bytes with protobufjs. */
export function decodeStatus(bytes: Uint8Array): DecodedStatus {
  return decodeMessage(RPC_STATUS, "google.rpc.Status", bytes) as unknown as DecodedStatus;
}

/** The decoded status trailer of a failed call, or undefined when it has none. */
export function statusTrailer(error: grpc.ServiceError): DecodedStatus | undefined {
  const values = error.metadata?.get("grpc-status-details-bin") ?? [];
  if (values.length === 0) return undefined;
  return decodeStatus(values[0] as Uint8Array);
}

/** A client of upstream's `ShardDistributorAPI` and executor API, built from upstream's image only. */
export function upstreamClients(definition: protoLoader.PackageDefinition, address: string): {
  readonly api: grpc.Client;
  readonly executor: grpc.Client;
  close(): void;
} {
  const v1 = (grpc.loadPackageDefinition(definition) as unknown as {
    uber: { cadence: { sharddistributor: { v1: Record<string, grpc.ServiceClientConstructor> } } };
  }).uber.cadence.sharddistributor.v1;
  const credentials = grpc.credentials.createInsecure();
  const api = new v1.ShardDistributorAPI!(address, credentials);
  const executor = new v1.ShardDistributorExecutorAPI!(address, credentials);
  return {
    api,
    executor,
    close() {
      api.close();
      executor.close();
    },
  };
}
