/**
 * Undecodable requests as INVALID_ARGUMENT. grpc-js answers a request whose
 * bytes its deserializer rejects with INTERNAL ("Error deserializing
 * request"), which blames the server for the caller's mistake. Wrapping each
 * method's deserializer turns such bytes into a marker that the handlers
 * answer with INVALID_ARGUMENT, naming the message type and the decoder's
 * complaint.
 *
 * @module
 */
import type * as grpc from "@grpc/grpc-js";
import { InvalidArgumentError } from "../../core/errors.ts";

const MALFORMED = Symbol("malformed request");

interface Malformed {
  readonly [MALFORMED]: string;
}

/**
 * A copy of `definition` whose request deserializers never throw.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { Buffer } from "node:buffer";
 * import { shardDistributorService } from "../../wire/proto.ts";
 * import { decoded, tolerantDefinition } from "./malformed.ts";
 *
 * const tolerant = tolerantDefinition(shardDistributorService);
 * // 0xff starts a field tag that never ends: the plain deserializer throws.
 * const request = tolerant.GetShardOwner.requestDeserialize(Buffer.from([0xff]));
 * assert.throws(() => decoded(request), /not a valid GetShardOwnerRequest/);
 * ```
 */
export function tolerantDefinition<T extends grpc.ServiceDefinition>(definition: T): T {
  const copy: Record<string, unknown> = {};
  for (const [name, method] of Object.entries(definition)) {
    const type = method.path.slice(method.path.lastIndexOf("/") + 1) + "Request";
    copy[name] = {
      ...method,
      requestDeserialize: (bytes: Uint8Array) => {
        try {
          return method.requestDeserialize(bytes as never);
        } catch (error) {
          const reason = error instanceof Error ? error.message : String(error);
          return { [MALFORMED]: `not a valid ${type}: ${reason.slice(0, 200)}` } as Malformed;
        }
      },
    };
  }
  return copy as T;
}

/**
 * Returns `request`, or throws `InvalidArgumentError` when its bytes could not
 * be decoded.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { decoded } from "./malformed.ts";
 * assert.equal(decoded({ namespace: "a" }).namespace, "a");
 * ```
 */
export function decoded<T>(request: T): T {
  if (typeof request === "object" && request !== null && MALFORMED in request) {
    throw new InvalidArgumentError("request", (request as Malformed)[MALFORMED]);
  }
  return request;
}
