/**
 * Server-stream messages encoded once and written to many calls. The watch
 * fan-out shares one picture or delta among all subscribers at the same point;
 * converting and protobuf-encoding it per subscriber cost the instance 4 s of
 * CPU when 1,000 spectators connected to a 10,000-shard namespace. Here the
 * method's serializer passes bytes through, and the handler encodes each shared
 * value once.
 *
 * @module
 */
import type * as grpc from "@grpc/grpc-js";
import { Buffer } from "node:buffer";

/** A copy of `definition` whose `method` writes `Uint8Array` messages unchanged. */
export function passEncodedThrough<D extends grpc.ServiceDefinition>(
  definition: D,
  method: keyof D & string,
): D {
  const original = definition[method]!;
  const serialize = original.responseSerialize;
  return {
    ...definition,
    [method]: {
      ...original,
      responseSerialize: (value: unknown) =>
        value instanceof Uint8Array ? asBuffer(value) : serialize(value),
    },
  };
}

/** Encodes shared values once each, for as long as they are alive. */
export class EncodedOnce<V extends object> {
  #bytes = new WeakMap<V, Uint8Array>();
  #encode: (value: V) => Uint8Array;

  /** `encode` turns a value into its wire bytes. */
  constructor(encode: (value: V) => Uint8Array) {
    this.#encode = encode;
  }

  /** The wire bytes of `value`, encoded on first use. */
  bytesOf(value: V): Uint8Array {
    let bytes = this.#bytes.get(value);
    if (!bytes) this.#bytes.set(value, bytes = this.#encode(value));
    return bytes;
  }
}

function asBuffer(bytes: Uint8Array): Buffer {
  return Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length);
}

/**
 * Encoded messages kept per key (an executor, say) under a stamp that changes
 * whenever the message would: re-encoded only when the stamp moves on.
 */
export class EncodedByStamp {
  #entries = new Map<string, { stamp: number; bytes: Uint8Array }>();
  readonly #limit: number;

  /** Keeps at most `limit` keys; past it, starts over (keys of departed executors go). */
  constructor(limit = 100_000) {
    this.#limit = limit;
  }

  /** The bytes for `key` at `stamp`, from `encode` when not already kept. */
  bytesOf(key: string, stamp: number, encode: () => Uint8Array): Uint8Array {
    const kept = this.#entries.get(key);
    if (kept?.stamp === stamp) return kept.bytes;
    const bytes = encode();
    if (!kept && this.#entries.size >= this.#limit) this.#entries.clear();
    this.#entries.set(key, { stamp, bytes });
    return bytes;
  }
}
