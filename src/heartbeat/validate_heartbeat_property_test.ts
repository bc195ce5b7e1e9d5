/**
 * Property tests of `validateHeartbeat` (moved from limits/, which sits below
 * heartbeat/): anything is refused cleanly, and every well-formed heartbeat
 * is kept as it was sent.
 */
import assert from "node:assert/strict";
import fc from "fast-check";
import { InvalidArgumentError } from "../core/errors.ts";
import {
  DEFAULT_REQUEST_LIMITS,
  MAX_EXECUTOR_ID_LENGTH,
  MAX_METADATA_KEY_LENGTH,
  NAMESPACE_NAME_PATTERN,
} from "../limits/request_limits.ts";
import { validateHeartbeat } from "./validate_heartbeat.ts";

const hasControl = (s: string) => [...s].some((c) => c.charCodeAt(0) < 0x20 || c === "\x7f");

/** Runs per property; `FUZZ_RUNS` raises it for longer runs. */
const numRuns = Number(Deno.env.get("FUZZ_RUNS") ?? 300);
/** A seed printed on failure by fast-check; `FUZZ_SEED` replays one. */
const seed = Deno.env.get("FUZZ_SEED") ? Number(Deno.env.get("FUZZ_SEED")) : undefined;
const params = { numRuns, ...(seed === undefined ? {} : { seed }) };

const encoder = new TextEncoder();
/** UTF-8 size by the platform's encoder. */
const bytesOf = (s: string) => encoder.encode(s).length;

/** Strings of every kind: ASCII, full unicode (lone surrogates too), empty, long. */
const anyString = fc.oneof(
  fc.string(),
  fc.string({ unit: "binary" }),
  fc.string({ unit: "grapheme", maxLength: 40 }),
  fc.constantFrom("", " ", "\u0000", "\n", "é", "😀", "\ud800", "a/b", "..", "-x"),
  fc.nat({ max: 3000 }).map((n) => "k".repeat(n)),
);

const rawValue = fc.oneof(
  anyString,
  fc.double(),
  fc.integer(),
  fc.constant(undefined),
  fc.constant(null),
  fc.constantFrom("EXECUTOR_STATUS_ACTIVE", "DRAINING", "SHARD_STATUS_DONE", "READY", "7"),
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

Deno.test("validateHeartbeat fails only with InvalidArgumentError, whatever it is given", () => {
  const report = fc.record({ status: rawValue, load: rawValue });
  const raw = fc.record({
    namespace: rawValue,
    executorId: fc.oneof(anyString, fc.constant("e1")),
    status: fc.oneof(rawValue, fc.constant("EXECUTOR_STATUS_ACTIVE")),
    reports: fc.dictionary(anyString, report, { maxKeys: 20 }),
    metadata: fc.dictionary(anyString, anyString, { maxKeys: 40 }),
  });
  fc.assert(
    fc.property(raw, (input) => {
      // The transport always passes strings and numbers; anything else must still fail cleanly.
      accepts(() => validateHeartbeat(input as unknown as Parameters<typeof validateHeartbeat>[0]));
    }),
    params,
  );
});

Deno.test("validateHeartbeat accepts every well-formed heartbeat and keeps its content", () => {
  const key = fc.string({ minLength: 1, maxLength: 64 });
  const raw = fc.record({
    namespace: fc.stringMatching(NAMESPACE_NAME_PATTERN),
    executorId: fc.string({ minLength: 1, maxLength: 256 }).filter((s) =>
      !hasControl(s) && bytesOf(s) <= MAX_EXECUTOR_ID_LENGTH
    ),
    status: fc.constantFrom("EXECUTOR_STATUS_ACTIVE", "EXECUTOR_STATUS_DRAINING", "DRAINED"),
    reports: fc.dictionary(
      key,
      fc.record({
        status: fc.constantFrom("SHARD_STATUS_READY", "SHARD_STATUS_DONE"),
        load: fc.double({ min: 0, max: 1e12, noNaN: true }),
      }),
      { maxKeys: 50 },
    ),
    metadata: fc.dictionary(
      fc.string({ minLength: 1, maxLength: 128 }).filter((k) =>
        bytesOf(k) <= MAX_METADATA_KEY_LENGTH
      ),
      fc.string(),
      { maxKeys: 32 },
    ),
  });
  fc.assert(
    fc.property(raw, (input) => {
      const hb = validateHeartbeat(input);
      assert.deepEqual(Object.entries(hb.metadata), Object.entries(input.metadata));
      assert.deepEqual([...hb.reports.keys()].sort(), Object.keys(input.reports).sort());
      assert.equal(hb.executorId, input.executorId);
    }),
    params,
  );
});

Deno.test("validateHeartbeat caps the number of shard reports", () => {
  const limits = { ...DEFAULT_REQUEST_LIMITS, maxShardReportsPerHeartbeat: 3 };
  const reports = Object.fromEntries(
    ["a", "b", "c", "d"].map((k) => [k, { status: "SHARD_STATUS_READY", load: 1 }]),
  );
  assert.throws(
    () =>
      validateHeartbeat({
        namespace: "ns",
        executorId: "e",
        status: "EXECUTOR_STATUS_ACTIVE",
        reports,
        metadata: {},
      }, limits),
    /Invalid shard_status_reports: has 4 reports; at most 3 are allowed/,
  );
});
