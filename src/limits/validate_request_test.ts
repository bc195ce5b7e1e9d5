import assert from "node:assert/strict";
import fc from "fast-check";

const hasControl = (s: string) => [...s].some((c) => c.charCodeAt(0) < 0x20 || c === "\x7f");
import { InvalidArgumentError } from "../core/errors.ts";
import { namespaceSchema } from "../config/namespace_schema.ts";
import {
  DEFAULT_REQUEST_LIMITS,
  MAX_EXECUTOR_ID_LENGTH,
  MAX_METADATA_KEY_LENGTH,
  MAX_METADATA_KEYS,
  NAMESPACE_NAME_PATTERN,
} from "./request_limits.ts";
import {
  jsonBytes,
  utf8Bytes,
  validateExecutorId,
  validateMetadata,
  validateNamespace,
  validateReason,
  validateShardKey,
  validateShardKeys,
} from "./validate_request.ts";

/** Runs per property; `FUZZ_RUNS` raises it for longer runs. */
const numRuns = Number(Deno.env.get("FUZZ_RUNS") ?? 300);
/** A seed printed on failure by fast-check; `FUZZ_SEED` replays one. */
const seed = Deno.env.get("FUZZ_SEED") ? Number(Deno.env.get("FUZZ_SEED")) : undefined;
const params = { numRuns, ...(seed === undefined ? {} : { seed }) };

const encoder = new TextEncoder();
/** UTF-8 size by the platform's encoder: what utf8Bytes must agree with. */
const bytesOf = (s: string) => encoder.encode(s).length;

/** Strings of every kind: ASCII, full unicode (lone surrogates too), empty, long. */
const anyString = fc.oneof(
  fc.string(),
  fc.string({ unit: "binary" }),
  fc.string({ unit: "grapheme", maxLength: 40 }),
  fc.constantFrom("", " ", "\u0000", "\n", "é", "😀", "\ud800", "a/b", "..", "-x"),
  fc.nat({ max: 3000 }).map((n) => "k".repeat(n)),
);

/** Calls `fn`; true when it returned, false on `InvalidArgumentError`, rethrows anything else. */
function accepts(fn: () => unknown): boolean {
  try {
    fn();
    return true;
  } catch (error) {
    if (error instanceof InvalidArgumentError) {
      assert.ok(error.message.startsWith(`Invalid ${error.field}: `), error.message);
      return false;
    }
    throw error;
  }
}

Deno.test("validateNamespace accepts exactly the names the configuration accepts", () => {
  fc.assert(
    fc.property(
      fc.oneof(anyString, fc.stringMatching(NAMESPACE_NAME_PATTERN)),
      (name) => {
        const config = namespaceSchema.safeParse({ name, type: "ephemeral" }).success;
        assert.equal(accepts(() => validateNamespace(name)), config, JSON.stringify(name));
      },
    ),
    params,
  );
});

Deno.test("utf8Bytes counts what TextEncoder writes, lone surrogates included", () => {
  fc.assert(
    fc.property(anyString, (s) => assert.equal(utf8Bytes(s), bytesOf(s), JSON.stringify(s))),
    params,
  );
  for (const s of ["", "a", "é", "€", "😀", "\ud800", "\udc00", "\ud800a", "a\udbff\udfff"]) {
    assert.equal(utf8Bytes(s), bytesOf(s), JSON.stringify(s));
  }
});

Deno.test("metadata keys are limited to 128 UTF-8 bytes, not characters", () => {
  const key = (k: string) => () => validateMetadata({ [k]: "v" });
  assert.throws(key("é".repeat(65)), /key is 130 bytes \(UTF-8\); at most 128 are allowed/);
  assert.throws(key("😀".repeat(40)), /key is 160 bytes \(UTF-8\); at most 128 are allowed/);
  validateMetadata({ ["é".repeat(64)]: "v" }); // exactly 128 bytes
  validateMetadata({ ["k".repeat(128)]: "v" });
  assert.throws(key("k".repeat(129)), /key is 129 bytes/);
});

Deno.test("shard keys, executor ids and drain reasons are limited in UTF-8 bytes too", () => {
  const limits = { maxShardKeyLength: 8 };
  validateShardKey("éééé", "shard_key", limits);
  assert.throws(() => validateShardKey("ééééa", "shard_key", limits), /is 9 bytes \(UTF-8\)/);
  assert.throws(() => validateShardKey("😀😀a", "shard_key", limits), /is 9 bytes/);
  validateExecutorId("é".repeat(128));
  assert.throws(() => validateExecutorId("é".repeat(129)), /is 258 bytes \(UTF-8\); at most 256/);
  assert.throws(() => validateReason("😀".repeat(257)), /is 1028 bytes \(UTF-8\); at most 1024/);
});

Deno.test("validateShardKey accepts exactly 1 to maxShardKeyLength UTF-8 bytes", () => {
  fc.assert(
    fc.property(anyString, fc.integer({ min: 1, max: 2048 }), (key, max) => {
      const ok = key.length >= 1 && bytesOf(key) <= max;
      assert.equal(
        accepts(() => validateShardKey(key, "shard_key", { maxShardKeyLength: max })),
        ok,
      );
    }),
    params,
  );
});

Deno.test("validateShardKeys names the index of the first bad key and caps the count", () => {
  fc.assert(
    fc.property(
      fc.array(anyString, { maxLength: 30 }),
      fc.integer({ min: 1, max: 40 }),
      (keys, max) => {
        const limits = { ...DEFAULT_REQUEST_LIMITS, maxShardKeysPerRequest: max };
        try {
          validateShardKeys(keys, limits);
          assert.ok(keys.length <= max);
          assert.ok(keys.every((k) => k.length >= 1 && bytesOf(k) <= limits.maxShardKeyLength));
        } catch (error) {
          assert.ok(error instanceof InvalidArgumentError);
          if (keys.length > max) assert.equal(error.field, "shard_keys");
          else {
            const bad = keys.findIndex((k) =>
              k.length < 1 || bytesOf(k) > limits.maxShardKeyLength
            );
            assert.equal(error.field, `shard_keys[${bad}]`);
          }
        }
      },
    ),
    params,
  );
});

Deno.test("validateExecutorId rejects empty, overlong and control-character ids only", () => {
  fc.assert(
    fc.property(anyString, (id) => {
      const ok = id.length >= 1 && bytesOf(id) <= MAX_EXECUTOR_ID_LENGTH &&
        !hasControl(id);
      assert.equal(accepts(() => validateExecutorId(id)), ok);
    }),
    params,
  );
});

Deno.test("validateMetadata never lets stored metadata exceed maxMetadataBytes", () => {
  const metadata = fc.dictionary(
    fc.oneof(anyString, fc.string({ minLength: 1, maxLength: 8 })),
    fc.oneof(anyString, fc.nat({ max: 40_000 }).map((n) => "\u0001".repeat(n))),
    { maxKeys: 40 },
  );
  fc.assert(
    fc.property(metadata, fc.integer({ min: 1024, max: 200_000 }), (md, max) => {
      if (accepts(() => validateMetadata(md, "metadata", { maxMetadataBytes: max }))) {
        assert.ok(jsonBytes(md) <= max, `${jsonBytes(md)} > ${max}`);
        assert.ok(Object.keys(md).length <= MAX_METADATA_KEYS);
        assert.ok(
          Object.keys(md).every((k) => k.length >= 1 && bytesOf(k) <= MAX_METADATA_KEY_LENGTH),
        );
      }
    }),
    params,
  );
});
