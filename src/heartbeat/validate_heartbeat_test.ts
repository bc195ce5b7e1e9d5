import assert from "node:assert/strict";
import { InvalidArgumentError, NamespaceNotFoundError } from "../core/errors.ts";
import {
  MAX_EXECUTOR_ID_LENGTH,
  MAX_METADATA_KEY_LENGTH,
  MAX_METADATA_KEYS,
  MAX_METADATA_VALUE_BYTES,
  MAX_SHARD_KEY_LENGTH,
} from "./limits.ts";
import { type RawHeartbeat, validateHeartbeat } from "./validate_heartbeat.ts";

function raw(over: Partial<RawHeartbeat> = {}): RawHeartbeat {
  return {
    namespace: "ns",
    executorId: "exec-1",
    status: "EXECUTOR_STATUS_ACTIVE",
    reports: {},
    metadata: {},
    ...over,
  };
}

/** Asserts that validation fails naming `field`, with a message matching `message`. */
function rejects(input: RawHeartbeat, field: string, message?: RegExp): void {
  assert.throws(() => validateHeartbeat(input), (error: unknown) => {
    assert.ok(error instanceof InvalidArgumentError, String(error));
    assert.equal(error.field, field);
    assert.ok(error.message.includes(field), error.message);
    if (message) assert.match(error.message, message);
    return true;
  });
}

function keys(n: number): Record<string, string> {
  return Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${i}`, "v"]));
}

Deno.test("validate heartbeat accepts a well-formed heartbeat and copies it", () => {
  const metadata = { addr: "10.0.0.1:7000" };
  const hb = validateHeartbeat(raw({
    metadata,
    reports: { "7": { status: "SHARD_STATUS_READY", load: 2.5 }, x: { status: "DONE", load: 0 } },
  }));
  assert.deepEqual(hb, {
    namespace: "ns",
    executorId: "exec-1",
    status: "ACTIVE",
    metadata,
    reports: new Map([["7", { status: "READY", load: 2.5 }], ["x", { status: "DONE", load: 0 }]]),
  });
  assert.notEqual(hb.metadata, metadata);
});

Deno.test("validate heartbeat accepts executor statuses with and without the enum prefix", () => {
  for (const name of ["ACTIVE", "DRAINING", "DRAINED"] as const) {
    assert.equal(validateHeartbeat(raw({ status: name })).status, name);
    assert.equal(validateHeartbeat(raw({ status: `EXECUTOR_STATUS_${name}` })).status, name);
  }
});

Deno.test("validate heartbeat rejects INVALID (unset) and names not in the contract", () => {
  for (
    const status of [
      "1",
      "UNKNOWN",
      "UNKNOWN_3",
      "EXECUTOR_STATUS_INVALID",
      "INVALID",
      "active",
      "",
    ]
  ) {
    rejects(raw({ status }), "status", /must be one of EXECUTOR_STATUS_ACTIVE/);
  }
  for (const status of [0, 1.5, NaN]) rejects(raw({ status }), "status", /not INVALID/);
  rejects(
    raw({ reports: { s: { status: 0, load: 1 } } }),
    'shard_status_reports["s"].status',
    /SHARD_STATUS_READY/,
  );
  rejects(
    raw({ reports: { s: { status: "2", load: 1 } } }),
    'shard_status_reports["s"].status',
    /SHARD_STATUS_READY/,
  );
});

Deno.test("validate heartbeat takes enum numbers it does not know: executor UNKNOWN, shard READY", () => {
  for (const number of [4, 7, 2 ** 31 - 1, -1]) {
    const hb = validateHeartbeat(raw({ status: number }));
    assert.equal(hb.status, "UNKNOWN");
    assert.equal(hb.statusNumber, number);
  }
  // Known numbers are their names (the loader sends names, but numbers mean the same).
  assert.equal(validateHeartbeat(raw({ status: 2 })).status, "DRAINING");
  assert.equal(validateHeartbeat(raw({ status: 2 })).statusNumber, undefined);
  const reports = validateHeartbeat(raw({
    reports: { a: { status: 5, load: 1 }, b: { status: 2, load: 1 }, c: { status: 99, load: 0 } },
  })).reports;
  assert.deepEqual(Object.fromEntries(reports), {
    a: { status: "READY", load: 1 },
    b: { status: "DONE", load: 1 },
    c: { status: "READY", load: 0 },
  });
});

Deno.test("validate heartbeat reads status 3 as PREPARED only from an executor that sends warm_handover", () => {
  const reports = { a: { status: 3, load: 0 }, b: { status: 4, load: 0 } };
  const old = validateHeartbeat(raw({ reports }));
  assert.equal(old.warmHandover, undefined);
  assert.equal(old.reports.get("a")?.status, "NOT_RUNNING"); // 3 meant NOT_RUNNING before
  assert.equal(old.reports.get("b")?.status, "NOT_RUNNING");
  const warm = validateHeartbeat({ ...raw({ reports }), warmHandover: true });
  assert.equal(warm.warmHandover, true);
  assert.equal(warm.reports.get("a")?.status, "PREPARED");
  assert.equal(warm.reports.get("b")?.status, "NOT_RUNNING");
  const named = { a: { status: "SHARD_STATUS_PREPARED", load: 0 } };
  assert.equal(validateHeartbeat(raw({ reports: named })).reports.get("a")?.status, "NOT_RUNNING");
});

Deno.test("validate heartbeat allows 32 metadata keys and rejects 33", () => {
  assert.equal(MAX_METADATA_KEYS, 32);
  validateHeartbeat(raw({ metadata: keys(32) }));
  rejects(raw({ metadata: keys(33) }), "metadata", /has 33 keys; at most 32/);
});

Deno.test("validate heartbeat allows a 128-byte metadata key and rejects 129 bytes", () => {
  assert.equal(MAX_METADATA_KEY_LENGTH, 128);
  validateHeartbeat(raw({ metadata: { ["k".repeat(128)]: "v" } }));
  validateHeartbeat(raw({ metadata: { ["é".repeat(64)]: "v" } }));
  rejects(
    raw({ metadata: { ["k".repeat(129)]: "v" } }),
    `metadata[${JSON.stringify("k".repeat(32))}…]`,
    /129 bytes/,
  );
  rejects(
    raw({ metadata: { ["é".repeat(65)]: "v" } }),
    `metadata[${JSON.stringify("é".repeat(32))}…]`,
    /130 bytes/,
  );
  rejects(
    raw({ metadata: { ["😀".repeat(40)]: "v" } }),
    `metadata[${JSON.stringify("😀".repeat(16))}…]`,
    /160 bytes/,
  );
  rejects(raw({ metadata: { "": "v" } }), "metadata", /empty/);
});

Deno.test("validate heartbeat counts metadata values in UTF-8 bytes up to 512 KiB", () => {
  assert.equal(MAX_METADATA_VALUE_BYTES, 512 * 1024);
  validateHeartbeat(raw({ metadata: { big: "x".repeat(512 * 1024) } }));
  rejects(
    raw({ metadata: { big: "x".repeat(512 * 1024 + 1) } }),
    'metadata["big"]',
    /524289 bytes/,
  );
  // 256 Ki two-byte characters are exactly 512 KiB; one more is over.
  validateHeartbeat(raw({ metadata: { big: "é".repeat(256 * 1024) } }));
  rejects(raw({ metadata: { big: "é".repeat(256 * 1024 + 1) } }), 'metadata["big"]');
});

Deno.test("validate heartbeat checks the executor id for emptiness, length and control characters", () => {
  assert.equal(MAX_EXECUTOR_ID_LENGTH, 256);
  validateHeartbeat(raw({ executorId: "e".repeat(256) }));
  rejects(raw({ executorId: "" }), "executor_id", /must not be empty/);
  rejects(raw({ executorId: "e".repeat(257) }), "executor_id", /257 bytes \(UTF-8\); at most 256/);
  for (const id of ["a\nb", "a\u0000", "tab\there", "del\u007f"]) {
    rejects(raw({ executorId: id }), "executor_id", /control characters/);
  }
  validateHeartbeat(raw({ executorId: "host/pod-1:ü" }));
});

Deno.test("validate heartbeat rejects negative, NaN and infinite loads", () => {
  validateHeartbeat(raw({ reports: { s: { status: "READY", load: 0 } } }));
  for (const load of [-1, -0.001, NaN, Infinity]) {
    rejects(
      raw({ reports: { s: { status: "READY", load } } }),
      'shard_status_reports["s"].shard_load',
      new RegExp(`got ${load}`),
    );
  }
});

Deno.test("validate heartbeat checks shard keys in reports", () => {
  assert.equal(MAX_SHARD_KEY_LENGTH, 1024);
  validateHeartbeat(raw({ reports: { ["s".repeat(1024)]: { status: "READY", load: 1 } } }));
  const long = "s".repeat(1025);
  rejects(
    raw({ reports: { [long]: { status: "READY", load: 1 } } }),
    `shard_status_reports[${JSON.stringify(long.slice(0, 64))}]`,
    /1025 bytes/,
  );
  rejects(raw({ reports: { "": { status: "READY", load: 1 } } }), 'shard_status_reports[""]');
});

Deno.test("validate heartbeat checks the namespace's name first, then that it is served here", () => {
  rejects(raw({ namespace: "" }), "namespace", /must not be empty/);
  rejects(raw({ namespace: "a b", executorId: "" }), "namespace", /letters, digits/);
  rejects(raw({ namespace: 7 as unknown as string }), "namespace", /must be a string/);
  const known = (name: string) => name === "ns";
  assert.throws(
    () =>
      validateHeartbeat(raw({ namespace: "other", executorId: "" }), undefined, {
        knownNamespace: known,
      }),
    (error: unknown) => error instanceof NamespaceNotFoundError && /other/.test(error.message),
    "an unknown namespace is reported before the other fields are checked",
  );
  assert.equal(
    validateHeartbeat(raw(), undefined, { knownNamespace: known }).namespace,
    "ns",
  );
});

Deno.test("validate heartbeat takes NOT_RUNNING, by name or number (a held shard not served)", () => {
  const reports = validateHeartbeat(raw({
    reports: {
      a: { status: "SHARD_STATUS_NOT_RUNNING", load: 0 },
      b: { status: 3, load: 0 },
      c: { status: "NOT_RUNNING", load: 1 },
    },
  })).reports;
  assert.deepEqual([...reports.values()].map((r) => r.status), [
    "NOT_RUNNING",
    "NOT_RUNNING",
    "NOT_RUNNING",
  ]);
});

Deno.test("validate heartbeat refuses a declared capacity placement cannot read", () => {
  const ok = validateHeartbeat(
    raw({ metadata: { "sm.capacity.shards": "40", "sm.capacity.load": "2.5" } }),
  );
  assert.equal(ok.metadata["sm.capacity.shards"], "40");
  rejects(
    raw({ metadata: { "sm.capacity.shards": "0" } }),
    "metadata",
    /"sm\.capacity\.shards" \(a declared capacity\) must be a positive integer, got "0"/,
  );
  rejects(raw({ metadata: { "sm.capacity.shards": "1.5" } }), "metadata", /positive integer/);
  rejects(
    raw({ metadata: { "sm.capacity.load": "lots" } }),
    "metadata",
    /positive number, got "lots"/,
  );
});

Deno.test("validate heartbeat keeps the incarnation an executor sends, and refuses an oversized one", () => {
  assert.equal(validateHeartbeat(raw()).incarnation, undefined);
  assert.equal(validateHeartbeat(raw({ incarnation: "" })).incarnation, undefined);
  const id = "0b0f6c43-6a1f-4f5e-9d43-3f9c2a7d5e11";
  assert.equal(validateHeartbeat(raw({ incarnation: id })).incarnation, id);
  assert.throws(
    () => validateHeartbeat(raw({ incarnation: "x".repeat(65) })),
    /incarnation.*at most 64 characters, got 65 characters/,
  );
});

Deno.test("validate heartbeat keeps a slice's top keys and refuses too many, too long or bad loads", () => {
  const report = (topKeys: { key: string; load: number }[]) => ({
    reports: { "3": { status: "SHARD_STATUS_READY", load: 10, topKeys } },
  });
  const ok = validateHeartbeat(raw(report([{ key: "hot", load: 9 }, { key: "warm", load: 1 }])));
  assert.deepEqual(ok.reports.get("3")?.topKeys, [{ key: "hot", load: 9 }, {
    key: "warm",
    load: 1,
  }]);
  const many = Array.from({ length: 33 }, (_, i) => ({ key: `k${i}`, load: 1 }));
  rejects(raw(report(many)), 'shard_status_reports["3"].top_keys', /at most 32/);
  rejects(
    raw(report([{ key: "x".repeat(257), load: 1 }])),
    'shard_status_reports["3"].top_keys[0].key',
    /1 to 256/,
  );
  rejects(raw(report([{ key: "", load: 1 }])), 'shard_status_reports["3"].top_keys[0].key');
  rejects(
    raw(report([{ key: "a", load: -1 }])),
    'shard_status_reports["3"].top_keys[0].load',
    />= 0/,
  );
  rejects(raw(report([{ key: "a", load: NaN }])), 'shard_status_reports["3"].top_keys[0].load');
});
