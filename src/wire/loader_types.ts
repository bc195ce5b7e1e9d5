/**
 * The types the generated code in `./gen/` names for int64 values and for the
 * definitions of messages, enums and methods, declared here so that the
 * contract's types need no package beyond `@grpc/grpc-js`
 * (`scripts/gen_proto.ts` points the generated imports at this file). They
 * describe what {@linkcode ./service_definitions.ts} builds, and are
 * structurally the same as `@grpc/proto-loader`'s.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import type { Long } from "./loader_types.ts";
 *
 * // An int64 field being sent accepts a number, a decimal string, or a Long-like value.
 * const long: Long = { low: 1, high: 0, unsigned: false };
 * assert.equal(long.low, 1);
 * ```
 *
 * @module
 */
import type { Buffer } from "node:buffer";

/**
 * A 64-bit integer as two 32-bit halves, as the `long` package represents
 * it; protobuf.js accepts any object of this shape where an int64 goes.
 */
export interface Long {
  /** The low 32 bits, as a signed value. */
  low: number;
  /** The high 32 bits, as a signed value. */
  high: number;
  /** Whether the value is unsigned. */
  unsigned: boolean;
}

/** Encodes a message to its wire bytes. */
export type Serialize<T> = (value: T) => Buffer;

/** Decodes a message's wire bytes to a plain object. */
export type Deserialize<T> = (bytes: Buffer) => T;

/** A message of the contract: its codec. */
export interface MessageTypeDefinition<InputType, OutputType> {
  /** Marks a message (as `@grpc/proto-loader` does). */
  readonly format: "Protocol Buffer 3 DescriptorProto";
  /** Encodes a message being sent. */
  readonly serialize: Serialize<InputType>;
  /** Decodes a received message. */
  readonly deserialize: Deserialize<OutputType>;
}

/** An enum of the contract. */
export interface EnumTypeDefinition {
  /** Marks an enum (as `@grpc/proto-loader` does). */
  readonly format: "Protocol Buffer 3 EnumDescriptorProto";
}

/** A method of a service, as `@grpc/grpc-js` clients and servers take it. */
export interface MethodDefinition<
  RequestType,
  ResponseType,
  OutputRequestType = RequestType,
  OutputResponseType = ResponseType,
> {
  /** `/<package>.<Service>/<Method>`. */
  path: string;
  /** Whether the client streams requests. */
  requestStream: boolean;
  /** Whether the server streams responses. */
  responseStream: boolean;
  /** Encodes a request (client side). */
  requestSerialize: Serialize<RequestType>;
  /** Encodes a response (server side). */
  responseSerialize: Serialize<ResponseType>;
  /** Decodes a request (server side). */
  requestDeserialize: Deserialize<OutputRequestType>;
  /** Decodes a response (client side). */
  responseDeserialize: Deserialize<OutputResponseType>;
  /** The method's camelCase name, which clients also get. */
  originalName?: string;
}
