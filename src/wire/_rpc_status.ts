/**
 * `google.rpc.Status` and `google.protobuf.Any` in protobuf's wire format,
 * written by hand: three and two fields, fixed by Google's well-known types.
 *
 * ```proto
 * message Status { int32 code = 1; string message = 2; repeated google.protobuf.Any details = 3; }
 * message Any { string type_url = 1; bytes value = 2; }
 * ```
 *
 * @module
 */

/** A `google.protobuf.Any`: a message's type URL and its encoded bytes. */
export interface PackedAny {
  /** `type.googleapis.com/<full message name>`. */
  readonly typeUrl: string;
  /** The encoded message. */
  readonly value: Uint8Array;
}

/** A `google.rpc.Status`. */
export interface RpcStatus {
  /** The gRPC status code. */
  readonly code: number;
  /** The message. */
  readonly message: string;
  /** The details. */
  readonly details: readonly PackedAny[];
}

const encoder = new TextEncoder();
const decoder = new TextDecoder("utf-8", { fatal: true });
const VARINT = 0, I64 = 1, LEN = 2, I32 = 5;

function varint(out: number[], value: number): void {
  // int32 fields encode negative values as 10-byte two's complement varints.
  let v = BigInt.asUintN(64, BigInt(value));
  while (v > 0x7fn) {
    out.push(Number(v & 0x7fn) | 0x80);
    v >>= 7n;
  }
  out.push(Number(v));
}

function bytesField(out: number[], field: number, bytes: Uint8Array): void {
  if (bytes.length === 0) return; // proto3 leaves defaults out
  varint(out, (field << 3) | LEN);
  varint(out, bytes.length);
  for (const b of bytes) out.push(b);
}

function encodeAny(any: PackedAny): Uint8Array {
  const out: number[] = [];
  bytesField(out, 1, encoder.encode(any.typeUrl));
  bytesField(out, 2, any.value);
  return Uint8Array.from(out);
}

/** Encodes a status. */
export function encodeRpcStatus(status: RpcStatus): Uint8Array {
  const out: number[] = [];
  if (status.code !== 0) {
    varint(out, (1 << 3) | VARINT);
    varint(out, status.code);
  }
  bytesField(out, 2, encoder.encode(status.message));
  for (const any of status.details) {
    const bytes = encodeAny(any);
    // An empty Any is still one element of the list.
    varint(out, (3 << 3) | LEN);
    varint(out, bytes.length);
    for (const b of bytes) out.push(b);
  }
  return Uint8Array.from(out);
}

/** Reads fields of one message; unknown fields are skipped. */
function* fields(bytes: Uint8Array): Generator<[number, number, Uint8Array | bigint]> {
  let at = 0;
  const readVarint = (): bigint => {
    let result = 0n, shift = 0n;
    for (;;) {
      if (at >= bytes.length) throw new RangeError("Truncated varint in google.rpc.Status");
      const b = bytes[at++]!;
      result |= BigInt(b & 0x7f) << shift;
      if ((b & 0x80) === 0) return result;
      shift += 7n;
      if (shift > 63n) throw new RangeError("Varint too long in google.rpc.Status");
    }
  };
  const take = (n: number): Uint8Array => {
    if (at + n > bytes.length) throw new RangeError("Truncated field in google.rpc.Status");
    const slice = bytes.subarray(at, at + n);
    at += n;
    return slice;
  };
  while (at < bytes.length) {
    const tag = Number(readVarint());
    const field = tag >>> 3, type = tag & 7;
    if (type === VARINT) yield [field, type, readVarint()];
    else if (type === LEN) yield [field, type, take(Number(readVarint()))];
    else if (type === I64) take(8);
    else if (type === I32) take(4);
    else throw new RangeError(`Unsupported wire type ${type} in google.rpc.Status`);
  }
}

function decodeAny(bytes: Uint8Array): PackedAny {
  let typeUrl = "", value = new Uint8Array();
  for (const [field, type, data] of fields(bytes)) {
    if (type !== LEN || !(data instanceof Uint8Array)) continue;
    if (field === 1) typeUrl = decoder.decode(data);
    else if (field === 2) value = data.slice();
  }
  return { typeUrl, value };
}

/** Decodes a status; throws `RangeError` when the bytes are not one. */
export function decodeRpcStatus(bytes: Uint8Array): RpcStatus {
  let code = 0, message = "";
  const details: PackedAny[] = [];
  try {
    for (const [field, type, data] of fields(bytes)) {
      if (field === 1 && type === VARINT) code = Number(BigInt.asIntN(32, data as bigint));
      else if (field === 2 && type === LEN) message = decoder.decode(data as Uint8Array);
      else if (field === 3 && type === LEN) details.push(decodeAny(data as Uint8Array));
    }
  } catch (error) {
    if (error instanceof RangeError) throw error;
    throw new RangeError("Invalid UTF-8 in google.rpc.Status", { cause: error });
  }
  return { code, message, details };
}
