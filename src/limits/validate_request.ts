/**
 * Checks of request fields against the limits, each throwing
 * `InvalidArgumentError` that names the field, the limit and what was given.
 *
 * @module
 */
import { InvalidArgumentError } from "../core/errors.ts";
import {
  DEFAULT_REQUEST_LIMITS,
  MAX_EXECUTOR_ID_LENGTH,
  MAX_METADATA_KEY_LENGTH,
  MAX_METADATA_KEYS,
  MAX_METADATA_VALUE_BYTES,
  MAX_REASON_LENGTH,
  NAMESPACE_NAME_PATTERN,
  type RequestLimits,
} from "./request_limits.ts";

// deno-lint-ignore no-control-regex
const CONTROL = /[\u0000-\u001f\u007f]/;

/** A value shortened for an error message: at most `max` characters, JSON-quoted. */
export function preview(value: string, max = 64): string {
  return value.length <= max ? JSON.stringify(value) : `${JSON.stringify(value.slice(0, max))}…`;
}

/**
 * UTF-8 size of `value` in bytes, as `new TextEncoder().encode(value).length`
 * (a lone surrogate counts 3, as the U+FFFD it is encoded as), without
 * encoding it. Every length limit on strings is counted in these bytes.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { utf8Bytes } from "./validate_request.ts";
 *
 * assert.equal(utf8Bytes("é".repeat(64)), 128);
 * assert.equal(utf8Bytes("😀"), 4);
 * ```
 */
export function utf8Bytes(value: string): number {
  let bytes = value.length;
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c < 0x80) continue;
    if (c < 0x800) bytes += 1;
    else if (c >= 0xd800 && c <= 0xdbff && (value.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      bytes += 2; // a surrogate pair: 4 bytes for 2 code units
      i++;
    } else bytes += 2; // the rest of the BMP, and lone surrogates (U+FFFD)
  }
  return bytes;
}

/**
 * Whether `value` is longer than `max` UTF-8 bytes. A string of n UTF-16 code
 * units takes at most 3n bytes, so short strings are never counted.
 */
function overBytes(value: string, max: number): boolean {
  return value.length * 3 > max && (value.length > max || utf8Bytes(value) > max);
}

/** UTF-8 size of `value` as JSON text, as the store keeps it. */
export function jsonBytes(value: unknown): number {
  return utf8Bytes(JSON.stringify(value));
}

/**
 * Checks a namespace name: the syntax the configuration enforces, so a name
 * that could never be configured is INVALID_ARGUMENT rather than NOT_FOUND.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { validateNamespace } from "./validate_request.ts";
 * assert.equal(validateNamespace("orders"), "orders");
 * ```
 */
export function validateNamespace(name: string, field = "namespace"): string {
  if (name === "") throw new InvalidArgumentError(field, "must not be empty");
  if (!NAMESPACE_NAME_PATTERN.test(name)) {
    throw new InvalidArgumentError(
      field,
      `expected 1 to 128 letters, digits, ".", "_" or "-", starting with a letter or digit, ` +
        `got ${preview(name)}`,
    );
  }
  return name;
}

/**
 * Checks a shard key: not empty, at most `maxShardKeyLength` bytes (UTF-8).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { validateShardKey } from "./validate_request.ts";
 * assert.equal(validateShardKey("7", "shard_key"), "7");
 * ```
 */
export function validateShardKey(
  key: string,
  field = "shard_key",
  limits: Pick<RequestLimits, "maxShardKeyLength"> = DEFAULT_REQUEST_LIMITS,
): string {
  if (key.length === 0) throw new InvalidArgumentError(field, "must not be empty");
  if (overBytes(key, limits.maxShardKeyLength)) {
    throw new InvalidArgumentError(
      field,
      `is ${utf8Bytes(key)} bytes (UTF-8); at most ${limits.maxShardKeyLength} are allowed ` +
        `(limits.maxShardKeyLength)`,
    );
  }
  return key;
}

/**
 * Checks the shard keys of a drain or undrain: at least one, at most
 * `maxShardKeysPerRequest`, each a valid shard key.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { validateShardKeys } from "./validate_request.ts";
 * assert.equal(validateShardKeys(["1", "2"]).length, 2);
 * ```
 */
export function validateShardKeys(
  keys: readonly string[],
  limits: RequestLimits = DEFAULT_REQUEST_LIMITS,
  field = "shard_keys",
): readonly string[] {
  if (keys.length > limits.maxShardKeysPerRequest) {
    throw new InvalidArgumentError(
      field,
      `has ${keys.length} keys; at most ${limits.maxShardKeysPerRequest} are allowed ` +
        `(limits.maxShardKeysPerRequest)`,
    );
  }
  keys.forEach((key, i) => validateShardKey(key, `${field}[${i}]`, limits));
  return keys;
}

/**
 * Checks an executor id: not empty, at most 256 bytes (UTF-8), no control characters.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { validateExecutorId } from "./validate_request.ts";
 * assert.equal(validateExecutorId("host-1:7000"), "host-1:7000");
 * ```
 */
export function validateExecutorId(id: string, field = "executor_id"): string {
  if (id.length === 0) throw new InvalidArgumentError(field, "must not be empty");
  if (overBytes(id, MAX_EXECUTOR_ID_LENGTH)) {
    throw new InvalidArgumentError(
      field,
      `is ${utf8Bytes(id)} bytes (UTF-8); at most ${MAX_EXECUTOR_ID_LENGTH} are allowed`,
    );
  }
  if (CONTROL.test(id)) {
    throw new InvalidArgumentError(
      field,
      `must not contain control characters, got ${preview(id)}`,
    );
  }
  return id;
}

/**
 * Checks executor metadata (or a drain selector): at most 32 entries, keys of
 * 1 to 128 bytes, values of at most 512 KiB, and at most `maxMetadataBytes`
 * in all as stored (JSON). Sizes are UTF-8 bytes, as upstream counts them.
 *
 * @example
 * ```ts
 * import { validateMetadata } from "./validate_request.ts";
 * validateMetadata({ address: "10.0.0.5:8080" });
 * ```
 */
export function validateMetadata(
  metadata: Readonly<Record<string, string>>,
  field = "metadata",
  limits: Pick<RequestLimits, "maxMetadataBytes"> = DEFAULT_REQUEST_LIMITS,
): void {
  const entries = Object.entries(metadata);
  if (entries.length > MAX_METADATA_KEYS) {
    throw new InvalidArgumentError(
      field,
      `has ${entries.length} keys; at most ${MAX_METADATA_KEYS} are allowed`,
    );
  }
  let total = 2;
  for (const [key, value] of entries) {
    if (key.length === 0) throw new InvalidArgumentError(field, "keys must not be empty");
    if (overBytes(key, MAX_METADATA_KEY_LENGTH)) {
      throw new InvalidArgumentError(
        `${field}[${preview(key, 32)}]`,
        `key is ${utf8Bytes(key)} bytes (UTF-8); at most ${MAX_METADATA_KEY_LENGTH} are allowed`,
      );
    }
    const bytes = utf8Bytes(value);
    if (bytes > MAX_METADATA_VALUE_BYTES) {
      throw new InvalidArgumentError(
        `${field}[${preview(key)}]`,
        `value is ${bytes} bytes; at most ${MAX_METADATA_VALUE_BYTES} are allowed`,
      );
    }
    // The stored JSON: the key and value quoted and escaped, a colon and a comma.
    total += jsonBytes(key) + jsonBytes(value) + 2;
  }
  if (total > limits.maxMetadataBytes) {
    throw new InvalidArgumentError(
      field,
      `is ${total} bytes as stored; at most ${limits.maxMetadataBytes} are allowed ` +
        `(limits.maxMetadataBytes)`,
    );
  }
}

/**
 * Checks the free-text reason of an executor drain: at most 1024 bytes (UTF-8).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { validateReason } from "./validate_request.ts";
 * assert.equal(validateReason("TICKET-1"), "TICKET-1");
 * ```
 */
export function validateReason(reason: string, field = "reason"): string {
  if (overBytes(reason, MAX_REASON_LENGTH)) {
    throw new InvalidArgumentError(
      field,
      `is ${utf8Bytes(reason)} bytes (UTF-8); at most ${MAX_REASON_LENGTH} are allowed`,
    );
  }
  return reason;
}
