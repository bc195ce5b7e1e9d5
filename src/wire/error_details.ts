/**
 * Typed error details, as upstream Cadence's server sends them: the
 * `grpc-status-details-bin` trailer holds a serialized `google.rpc.Status`
 * (`code = 1`, `message = 2`, `details = 3`) whose one detail is a
 * `google.protobuf.Any` (`type_url = 1`, `value = 2`) packing one of the error
 * messages of `service.proto`. The detail messages are encoded by the same
 * loader as every other message of the contract; only the two-message
 * envelope, fixed by Google's well-known types, is written here by hand.
 *
 * @example Encode a detail and read it back
 * ```ts
 * import assert from "node:assert/strict";
 * import { decodeStatusDetails, encodeStatusDetails } from "./error_details.ts";
 *
 * const bytes = encodeStatusDetails(5, "Namespace \"x\" not found", {
 *   type: "NamespaceNotFoundError",
 *   namespace: "x",
 * });
 * const status = decodeStatusDetails(bytes);
 * assert.equal(status.code, 5);
 * assert.deepEqual(status.detail, { type: "NamespaceNotFoundError", namespace: "x" });
 * ```
 *
 * @module
 */
import type { Buffer } from "node:buffer";
import { contractMessage } from "./proto.ts";
import type { MessageTypeDefinition } from "./loader_types.ts";
import { decodeRpcStatus, encodeRpcStatus, type PackedAny } from "./_rpc_status.ts";

export type { PackedAny } from "./_rpc_status.ts";

/** The trailer that carries the status with its details. */
export const STATUS_DETAILS_KEY = "grpc-status-details-bin";

/** Package of the detail messages. */
export const DETAILS_PACKAGE = "uber.cadence.sharddistributor.v1";

/**
 * Type URL of a detail message: `type.googleapis.com/<package>.<Message>`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { detailTypeUrl } from "./error_details.ts";
 *
 * assert.equal(
 *   detailTypeUrl("ShardNotFoundError"),
 *   "type.googleapis.com/uber.cadence.sharddistributor.v1.ShardNotFoundError",
 * );
 * ```
 */
export function detailTypeUrl(type: ErrorDetail["type"]): string {
  return `type.googleapis.com/${DETAILS_PACKAGE}.${type}`;
}

/** One of the contract's error details, with camelCase fields. */
export type ErrorDetail =
  | { readonly type: "NamespaceNotFoundError"; readonly namespace: string }
  | { readonly type: "ShardNotFoundError"; readonly namespace: string; readonly shardKey: string }
  | { readonly type: "ShardDrainedError"; readonly namespace: string; readonly shardKey: string }
  | {
    readonly type: "EphemeralShardLimitExceededError";
    readonly namespace: string;
    readonly maxLimit: number;
    readonly currentValue: number;
  };

const TYPES: readonly ErrorDetail["type"][] = [
  "NamespaceNotFoundError",
  "ShardNotFoundError",
  "ShardDrainedError",
  "EphemeralShardLimitExceededError",
];

type Fields = Record<string, unknown>;

function messageType(type: ErrorDetail["type"]): MessageTypeDefinition<Fields, Fields> {
  return contractMessage<Fields, Fields>(`${DETAILS_PACKAGE}.${type}`);
}

/**
 * Packs `detail` as a `google.protobuf.Any`, encoded by the contract's loader.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { packErrorDetail } from "./error_details.ts";
 *
 * const any = packErrorDetail({ type: "NamespaceNotFoundError", namespace: "a" });
 * assert.deepEqual([...any.value], [0x0a, 1, 0x61]); // field 1, length 1, "a"
 * ```
 */
export function packErrorDetail(detail: ErrorDetail): PackedAny {
  const { type, ...fields } = detail;
  return { typeUrl: detailTypeUrl(type), value: messageType(type).serialize(fields) };
}

/**
 * Unpacks an Any holding one of the contract's details; undefined for any other type.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { packErrorDetail, unpackErrorDetail } from "./error_details.ts";
 *
 * const detail = { type: "ShardDrainedError", namespace: "ns", shardKey: "4" } as const;
 * assert.deepEqual(unpackErrorDetail(packErrorDetail(detail)), detail);
 * assert.equal(unpackErrorDetail({ typeUrl: "type.googleapis.com/x.Y", value: new Uint8Array() }), undefined);
 * ```
 */
export function unpackErrorDetail(any: PackedAny): ErrorDetail | undefined {
  const type = TYPES.find((t) => any.typeUrl === detailTypeUrl(t));
  if (type === undefined) return undefined;
  // protobufjs reads any Uint8Array; the type says Buffer only.
  const m = messageType(type).deserialize(any.value as Buffer);
  const text = (key: string) => String(m[key] ?? "");
  switch (type) {
    case "NamespaceNotFoundError":
      return { type, namespace: text("namespace") };
    case "ShardNotFoundError":
    case "ShardDrainedError":
      return { type, namespace: text("namespace"), shardKey: text("shardKey") };
    case "EphemeralShardLimitExceededError":
      return {
        type,
        namespace: text("namespace"),
        maxLimit: Number(m.maxLimit ?? 0),
        currentValue: Number(m.currentValue ?? 0),
      };
  }
}

/**
 * The `google.rpc.Status` bytes for a status with `detail` as its only detail
 * (see the module example).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { encodeStatusDetails } from "./error_details.ts";
 *
 * const bytes = encodeStatusDetails(5, "m", { type: "NamespaceNotFoundError", namespace: "a" });
 * assert.deepEqual([...bytes.subarray(0, 5)], [0x08, 5, 0x12, 1, 0x6d]); // code 5, message "m"
 * ```
 */
export function encodeStatusDetails(
  code: number,
  message: string,
  detail: ErrorDetail,
): Uint8Array {
  return encodeRpcStatus({ code, message, details: [packErrorDetail(detail)] });
}

/** A decoded `google.rpc.Status`: its fields, and the first detail this contract defines. */
export interface StatusDetails {
  /** The status code. */
  readonly code: number;
  /** The status message. */
  readonly message: string;
  /** Every detail, packed. */
  readonly details: readonly PackedAny[];
  /** The first detail that is one of the contract's, if any. */
  readonly detail?: ErrorDetail;
}

/**
 * Decodes the `grpc-status-details-bin` bytes; throws `RangeError` when they are malformed.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { decodeStatusDetails } from "./error_details.ts";
 *
 * assert.deepEqual(decodeStatusDetails(new Uint8Array([0x08, 9])), {
 *   code: 9,
 *   message: "",
 *   details: [],
 * });
 * assert.throws(() => decodeStatusDetails(new Uint8Array([0x08])), RangeError);
 * ```
 */
export function decodeStatusDetails(bytes: Uint8Array): StatusDetails {
  const status = decodeRpcStatus(bytes);
  for (const any of status.details) {
    const detail = unpackErrorDetail(any);
    if (detail) return { ...status, detail };
  }
  return status;
}
