/**
 * Builds `@grpc/grpc-js` service definitions and message codecs straight from
 * a protobuf.js `Root`, doing what `@grpc/proto-loader`'s `fromJSON` does for
 * services and messages (the same `fromObject`/`encode` to serialize, the
 * same `decode`/`toObject` with the caller's conversion options to
 * deserialize), without the loader and its dependencies. Only the file
 * descriptors for server reflection are left out; the server builds those
 * with the loader (`package_definition.ts`).
 *
 * @example Encode and decode a message of a small contract
 * ```ts
 * import assert from "node:assert/strict";
 * import { protobuf } from "./packages.ts";
 * import { messageCodec } from "./service_definitions.ts";
 *
 * const root = protobuf.Root.fromJSON({
 *   nested: { demo: { nested: { Ping: { fields: { id: { type: "int64", id: 1 } } } } } },
 * });
 * const ping = messageCodec<{ id?: string }, { id: string }>(
 *   root.lookupType("demo.Ping"),
 *   { longs: String, defaults: true },
 * );
 * assert.deepEqual(ping.deserialize(ping.serialize({ id: "9007199254740993" })), {
 *   id: "9007199254740993",
 * });
 * ```
 *
 * @module
 */
import type { Buffer } from "node:buffer";
import { protobuf } from "./packages.ts";
import type { MessageTypeDefinition, MethodDefinition } from "./loader_types.ts";

/**
 * How decoded messages become plain objects: protobuf.js's `toObject`
 * options (`longs`, `enums`, `defaults`, `oneofs`, ...).
 */
export type ConversionOptions = protobuf.IConversionOptions;

/** A service's methods by their proto name, as `grpc.Server.addService` and clients take them. */
export type ServiceDefinition = Record<string, MethodDefinition<object, object>>;

/**
 * `name` in camelCase as `@grpc/proto-loader` spells a method's
 * `originalName` (lodash's `camelCase`): words split at case changes and
 * digits, the first lower-cased, the others capitalised.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { camelCase } from "./service_definitions.ts";
 *
 * assert.equal(camelCase("GetShardOwner"), "getShardOwner");
 * assert.equal(camelCase("GetAPIKey2"), "getApiKey2");
 * ```
 */
export function camelCase(name: string): string {
  const words = name.match(/[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|[0-9]+/g) ?? [];
  return words.map((word, i) => {
    const lower = word.toLowerCase();
    return i === 0 ? lower : lower.charAt(0).toUpperCase() + lower.slice(1);
  }).join("");
}

/**
 * The codec of message type `type`: `serialize` checks the value is not an
 * array, converts it with `fromObject` and encodes it; `deserialize` decodes
 * and converts with `options`.
 *
 * @example See the module example.
 * ```ts
 * import assert from "node:assert/strict";
 * import { protobuf } from "./packages.ts";
 * import { messageCodec } from "./service_definitions.ts";
 *
 * const root = protobuf.Root.fromJSON({ nested: { M: { fields: { s: { type: "string", id: 1 } } } } });
 * const codec = messageCodec<{ s?: string }, { s: string }>(root.lookupType("M"), { defaults: true });
 * assert.deepEqual(codec.deserialize(codec.serialize({})), { s: "" });
 * assert.throws(() => codec.serialize([] as never), /expected object with M structure/);
 * ```
 */
export function messageCodec<InputType, OutputType>(
  type: protobuf.Type,
  options: ConversionOptions,
): MessageTypeDefinition<InputType, OutputType> {
  return {
    format: "Protocol Buffer 3 DescriptorProto",
    serialize: (value) => {
      if (Array.isArray(value)) {
        throw new Error(
          `Failed to serialize message: expected object with ${type.name} structure, got array instead`,
        );
      }
      return type.encode(type.fromObject(value as Record<string, unknown>)).finish() as Buffer;
    },
    deserialize: (bytes) => type.toObject(type.decode(bytes), options) as OutputType,
  };
}

/**
 * The definition of service `fullName` (e.g. `demo.Echo`) in `root`, whose
 * types must be resolved (`root.resolveAll()`); decoded messages follow
 * `options`. Throws `TypeError` when `root` has no such service.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { protobuf } from "./packages.ts";
 * import { serviceDefinition } from "./service_definitions.ts";
 *
 * const root = protobuf.Root.fromJSON({
 *   nested: {
 *     demo: {
 *       nested: {
 *         Msg: { fields: { text: { type: "string", id: 1 } } },
 *         Echo: { methods: { SayIt: { requestType: "Msg", responseType: "Msg", comment: "" } } },
 *       },
 *     },
 *   },
 * }).resolveAll();
 * const service = serviceDefinition(root, "demo.Echo", {});
 * assert.equal(service.SayIt?.path, "/demo.Echo/SayIt");
 * assert.equal(service.SayIt?.originalName, "sayIt");
 * assert.throws(() => serviceDefinition(root, "demo.Nope", {}), TypeError);
 * ```
 */
export function serviceDefinition(
  root: protobuf.Namespace,
  fullName: string,
  options: ConversionOptions,
): ServiceDefinition {
  const service = root.lookup(fullName);
  if (!(service instanceof protobuf.Service)) {
    throw new TypeError(`The contract defines no service ${fullName}`);
  }
  const definition: ServiceDefinition = {};
  for (const method of service.methodsArray) {
    const request = method.resolvedRequestType;
    const response = method.resolvedResponseType;
    if (!request || !response) {
      throw new TypeError(`${fullName}.${method.name}: resolve the root's types first`);
    }
    const requestCodec = messageCodec<object, object>(request, options);
    const responseCodec = messageCodec<object, object>(response, options);
    definition[method.name] = {
      path: `/${fullName}/${method.name}`,
      requestStream: !!method.requestStream,
      responseStream: !!method.responseStream,
      requestSerialize: requestCodec.serialize,
      requestDeserialize: requestCodec.deserialize,
      responseSerialize: responseCodec.serialize,
      responseDeserialize: responseCodec.deserialize,
      originalName: camelCase(method.name),
    };
  }
  return definition;
}
