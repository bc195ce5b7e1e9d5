/**
 * Property-based fuzzing of the gRPC API: every RPC listed from the loaded
 * proto files, and request bytes generated from each request type's
 * descriptor — well-typed messages with random values, unknown enum numbers,
 * unknown fields, wrong wire types, invalid UTF-8, truncated and random bytes.
 * Requests go out as raw bytes over a generic grpc-js client.
 *
 * @module
 */
import { Buffer } from "node:buffer";
import fc from "fast-check";
import * as grpc from "@grpc/grpc-js";
import { packageDefinition } from "../../src/wire/package_definition.ts";

/** One RPC of a service in the proto files. */
export interface RpcMethod {
  /** Full service name, e.g. `uber.cadence.sharddistributor.v1.ShardDistributorAPI`. */
  readonly service: string;
  /** Method name, e.g. `GetShardOwner`. */
  readonly name: string;
  /** HTTP/2 path, `/<service>/<method>`. */
  readonly path: string;
  /** Full name of the request message type. */
  readonly requestType: string;
  /** Whether the answer is a stream. */
  readonly responseStream: boolean;
}

interface FieldDescriptor {
  readonly name: string;
  readonly number: number;
  readonly label: string;
  readonly type: string;
  readonly typeName: string;
}

interface MessageDescriptor {
  readonly name: string;
  readonly field: readonly FieldDescriptor[];
  readonly nestedType: readonly MessageDescriptor[];
}

interface MethodDefinition {
  readonly path: string;
  readonly responseStream: boolean;
  readonly requestType: { readonly type: MessageDescriptor };
}

/** Every RPC of every service in the loaded proto files whose name contains `ShardDistributor`. */
export function rpcMethods(): RpcMethod[] {
  const methods: RpcMethod[] = [];
  for (const [service, definition] of Object.entries(packageDefinition)) {
    if ("format" in definition || !service.includes("ShardDistributor")) continue;
    for (const [name, method] of Object.entries(definition as Record<string, MethodDefinition>)) {
      const pkg = service.slice(0, service.lastIndexOf("."));
      methods.push({
        service,
        name,
        path: method.path,
        requestType: `${pkg}.${method.requestType.type.name}`,
        responseStream: method.responseStream,
      });
    }
  }
  return methods;
}

/** Values the generators draw names and keys from, so some requests reach real state. */
export interface FuzzVocabulary {
  /** Namespace names worth hitting (configured ones). */
  readonly namespaces: readonly string[];
  /** Shard keys and executor ids worth hitting. */
  readonly keys: readonly string[];
}

const encoder = new TextEncoder();

class Writer {
  readonly bytes: number[] = [];
  varint(value: bigint): this {
    let v = BigInt.asUintN(64, value);
    while (v >= 0x80n) {
      this.bytes.push(Number(v & 0x7fn) | 0x80);
      v >>= 7n;
    }
    this.bytes.push(Number(v));
    return this;
  }
  tag(field: number, wireType: number): this {
    return this.varint((BigInt(field) << 3n) | BigInt(wireType));
  }
  delimited(field: number, payload: Uint8Array): this {
    this.tag(field, 2).varint(BigInt(payload.length));
    for (const b of payload) this.bytes.push(b);
    return this;
  }
  fixed64(field: number, value: number): this {
    const buffer = new DataView(new ArrayBuffer(8));
    buffer.setFloat64(0, value, true);
    this.tag(field, 1);
    for (let i = 0; i < 8; i++) this.bytes.push(buffer.getUint8(i));
    return this;
  }
  finish(): Uint8Array {
    return Uint8Array.from(this.bytes);
  }
}

/** An encoded field occurrence: writes itself. */
type Piece = (w: Writer) => void;

function lookup(typeName: string, scope: MessageDescriptor | undefined, pkg: string) {
  const nested = scope?.nestedType.find((n) => n.name === typeName);
  if (nested) return { kind: "message" as const, type: nested };
  // A fully qualified name (google.protobuf.Timestamp) is looked up as it is.
  const def = (packageDefinition[`${pkg}.${typeName}`] ?? packageDefinition[typeName]) as
    | { type: MessageDescriptor | { value: { number: number }[] } }
    | undefined;
  if (!def) throw new Error(`Unknown type ${typeName}`);
  if ("value" in def.type) {
    return {
      kind: "enum" as const,
      numbers: def.type.value.map((v) => v.number),
    };
  }
  return { kind: "message" as const, type: def.type };
}

/** Strings of every kind for a string field, biased towards `vocabulary`. */
function stringArbitrary(vocabulary: readonly string[]): fc.Arbitrary<Uint8Array> {
  const text = fc.oneof(
    { weight: 12, arbitrary: fc.constantFrom(...vocabulary) },
    { weight: 2, arbitrary: fc.string({ maxLength: 40 }) },
    { weight: 2, arbitrary: fc.string({ unit: "binary", maxLength: 40 }) },
    {
      weight: 1,
      arbitrary: fc.constantFrom("", "\u0000", "../..", "a/b", "__proto__", "😀", "\ufeff"),
    },
    { weight: 1, arbitrary: fc.integer({ min: 1, max: 70_000 }).map((n) => "k".repeat(n)) },
  );
  return fc.oneof(
    { weight: 9, arbitrary: text.map((s) => encoder.encode(s)) },
    // Invalid UTF-8.
    { weight: 1, arbitrary: fc.uint8Array({ maxLength: 40 }) },
  );
}

function valuePieces(
  field: FieldDescriptor,
  scope: MessageDescriptor,
  pkg: string,
  vocabulary: FuzzVocabulary,
  depth: number,
  plausible: boolean,
): fc.Arbitrary<Piece> {
  const n = field.number;
  const names = field.name.toLowerCase().includes("namespace")
    ? vocabulary.namespaces
    : vocabulary.keys;
  switch (field.type) {
    case "TYPE_STRING":
      return (plausible
        ? fc.constantFrom(...names).map((t) => encoder.encode(t))
        : stringArbitrary(names)).map((bytes) => (w: Writer) => void w.delimited(n, bytes));
    case "TYPE_BOOL":
    case "TYPE_INT32":
    case "TYPE_INT64":
    case "TYPE_UINT64":
      return fc.oneof(
        fc.constantFrom(0n, 1n),
        fc.bigInt({ min: -(2n ** 63n), max: 2n ** 64n - 1n }),
      )
        .map((v) => (w: Writer) => void w.tag(n, 0).varint(v));
    case "TYPE_DOUBLE":
      return (plausible ? fc.double({ min: 0, max: 1e6, noNaN: true }) : fc.double()).map(
        (v) => (w: Writer) => void w.fixed64(n, v),
      );
    case "TYPE_ENUM": {
      const found = lookup(field.typeName, scope, pkg);
      const known = found.kind === "enum" ? found.numbers : [0];
      if (plausible) {
        const valid = known.filter((k) => k !== 0);
        return fc.constantFrom(...(valid.length ? valid : known).map(BigInt))
          .map((v) => (w: Writer) => void w.tag(n, 0).varint(v));
      }
      return fc.oneof(
        { weight: 4, arbitrary: fc.constantFrom(...known.map(BigInt)) },
        { weight: 1, arbitrary: fc.bigInt({ min: -(2n ** 31n), max: 2n ** 32n }) },
      ).map((v) => (w: Writer) => void w.tag(n, 0).varint(v));
    }
    case "TYPE_MESSAGE": {
      const found = lookup(field.typeName, scope, pkg);
      if (found.kind !== "message" || depth > 3) {
        return fc.uint8Array({ maxLength: 16 }).map((b) => (w: Writer) => void w.delimited(n, b));
      }
      return wellTyped(found.type, pkg, vocabulary, depth + 1, plausible)
        .map((bytes) => (w: Writer) => void w.delimited(n, bytes));
    }
    default:
      return fc.uint8Array({ maxLength: 8 }).map((b) => (w: Writer) => void w.delimited(n, b));
  }
}

/** A message with random values in its declared fields (each absent, once, or repeated). */
function wellTyped(
  type: MessageDescriptor,
  pkg: string,
  vocabulary: FuzzVocabulary,
  depth = 0,
  plausible = false,
): fc.Arbitrary<Uint8Array> {
  const fields = type.field.map((field) => {
    const piece = valuePieces(field, type, pkg, vocabulary, depth, plausible);
    const max = field.label === "LABEL_REPEATED" ? (depth === 0 ? 40 : 4) : 1;
    if (plausible) {
      // Map fields whose entries are keyed by shard key or executor id stay small.
      return field.label === "LABEL_REPEATED"
        ? fc.array(piece, { maxLength: 3 })
        : fc.oneof({ weight: 9, arbitrary: fc.array(piece, { minLength: 1, maxLength: 1 }) }, {
          weight: 1,
          arbitrary: fc.constant([]),
        });
    }
    return fc.oneof(
      { weight: 6, arbitrary: fc.array(piece, { minLength: 1, maxLength: max }) },
      { weight: 2, arbitrary: fc.constant([]) },
      // A singular field sent twice (the last one wins), or a very long repeated one.
      { weight: 1, arbitrary: fc.array(piece, { minLength: 2, maxLength: max === 1 ? 3 : 3000 }) },
    );
  });
  return fc.tuple(...fields).map((all) => {
    const w = new Writer();
    for (const pieces of all) for (const piece of pieces) piece(w);
    return w.finish();
  });
}

/** An extra field occurrence: an unknown number, or a known number with a wrong wire type. */
const strayField: fc.Arbitrary<Piece> = fc.record({
  field: fc.oneof(fc.integer({ min: 1, max: 12 }), fc.integer({ min: 13, max: 2 ** 29 - 1 })),
  wireType: fc.constantFrom(0, 1, 2, 5),
  payload: fc.uint8Array({ maxLength: 12 }),
  value: fc.bigInt({ min: 0n, max: 2n ** 64n - 1n }),
}).map(({ field, wireType, payload, value }) => (w: Writer) => {
  if (wireType === 0) w.tag(field, 0).varint(value);
  else if (wireType === 2) w.delimited(field, payload);
  else {
    w.tag(field, wireType);
    for (let i = 0; i < (wireType === 1 ? 8 : 4); i++) w.bytes.push(payload[i] ?? 0);
  }
});

/**
 * Request bytes for `method`: plausible requests (known names, valid enum
 * values), well-typed messages with random values, extra or mistyped fields, truncations, random bytes and
 * (`oversize`) a message larger than the server accepts.
 */
export function requestArbitrary(
  method: RpcMethod,
  vocabulary: FuzzVocabulary,
  oversize: number,
): fc.Arbitrary<Uint8Array> {
  const pkg = method.requestType.slice(0, method.requestType.lastIndexOf("."));
  const type = (packageDefinition[method.requestType] as unknown as { type: MessageDescriptor })
    .type;
  const typed = wellTyped(type, pkg, vocabulary);
  return fc.oneof(
    // Requests a well-behaved client could send, with names the service knows.
    { weight: 6, arbitrary: wellTyped(type, pkg, vocabulary, 0, true) },
    { weight: 10, arbitrary: typed },
    {
      weight: 3,
      arbitrary: fc.tuple(typed, fc.array(strayField, { minLength: 1, maxLength: 5 })).map(
        ([bytes, strays]) => {
          const w = new Writer();
          for (const s of strays) s(w);
          return Uint8Array.from([...bytes, ...w.finish()]);
        },
      ),
    },
    {
      weight: 2,
      arbitrary: fc.tuple(typed, fc.nat()).map(([bytes, cut]) =>
        bytes.slice(0, bytes.length === 0 ? 0 : cut % bytes.length)
      ),
    },
    { weight: 2, arbitrary: fc.uint8Array({ maxLength: 200 }) },
    {
      weight: 1,
      arbitrary: fc.constant(null).map(() =>
        new Writer().delimited(1, new Uint8Array(oversize)).finish()
      ),
    },
  );
}

/** The outcome of one raw call: its status code and details. */
export interface CallOutcome {
  /** gRPC status code (0 is OK). */
  readonly code: grpc.status;
  /** Status details. */
  readonly details: string;
}

const passThrough = (b: Uint8Array) => Buffer.from(b);
const keep = (b: Buffer) => b;

/**
 * Sends `bytes` to `method` on `client`; for a streaming answer, waits for the
 * first message (or the error), then cancels the stream.
 */
export function rawCall(
  client: grpc.Client,
  method: RpcMethod,
  bytes: Uint8Array,
  deadlineMs: number,
): Promise<CallOutcome> {
  const options = { deadline: Date.now() + deadlineMs };
  return new Promise((resolve) => {
    if (!method.responseStream) {
      client.makeUnaryRequest(
        method.path,
        passThrough,
        keep,
        bytes,
        new grpc.Metadata(),
        options,
        (error) =>
          resolve(error ? { code: error.code, details: error.details } : { code: 0, details: "" }),
      );
      return;
    }
    const stream = client.makeServerStreamRequest(
      method.path,
      passThrough,
      keep,
      bytes,
      new grpc.Metadata(),
      options,
    );
    let settled = false;
    const settle = (outcome: CallOutcome) => {
      if (settled) return;
      settled = true;
      resolve(outcome);
    };
    stream.on("data", () => {
      settle({ code: 0, details: "" });
      stream.cancel();
    });
    stream.on("error", (error: grpc.ServiceError) => {
      settle(
        error.code === grpc.status.CANCELLED && settled
          ? { code: 0, details: "" }
          : { code: error.code, details: error.details },
      );
    });
    stream.on("end", () => settle({ code: 0, details: "" }));
  });
}

export { fc, grpc };
