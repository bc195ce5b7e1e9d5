import assert from "node:assert/strict";
import type { Logger } from "./logger.ts";
import { OutageLog } from "./outage_log.ts";

interface Line {
  readonly level: keyof Logger;
  readonly message: string;
  readonly context: Readonly<Record<string, unknown>> | undefined;
}

function recorder(): { logger: Logger; lines: Line[] } {
  const lines: Line[] = [];
  const at =
    (level: keyof Logger) => (message: string, context?: Readonly<Record<string, unknown>>) =>
      void lines.push({ level, message, context });
  return {
    lines,
    logger: { debug: at("debug"), info: at("info"), warn: at("warn"), error: at("error") },
  };
}

const unavailable = Object.assign(
  new Error("14 UNAVAILABLE: No connection established. Last error: refused. Resolution note: "),
  { code: 14 },
);

function setup() {
  const { logger, lines } = recorder();
  const time = { now: 1_000 };
  const log = new OutageLog({
    logger,
    clock: { now: () => time.now },
    subject: 'Executor e-1 heartbeats (namespace "orders")',
    context: { namespace: "orders", executorId: "e-1" },
  });
  return { log, lines, time };
}

Deno.test("an outage of 17 failed heartbeats logs one warning when it starts and one info line when it ends", () => {
  const { log, lines, time } = setup();
  log.succeeded("sm-1:7943"); // no outage: nothing
  for (let i = 0; i < 17; i++) {
    log.failed(unavailable, "sm-1:7943");
    time.now += 400;
  }
  assert.equal(log.failing, true);
  assert.equal(log.attempts, 17);
  assert.deepEqual(lines.map((l) => l.level), ["warn"]);
  assert.match(
    lines[0]!.message,
    /^Executor e-1 heartbeats \(namespace "orders"\) failing at sm-1:7943 with UNAVAILABLE: 14 UNAVAILABLE: No connection established\. Last error: refused\. Retrying/,
  );
  assert.deepEqual(
    { ...lines[0]!.context, error: undefined },
    {
      namespace: "orders",
      executorId: "e-1",
      code: "UNAVAILABLE",
      address: "sm-1:7943",
      attempt: 1,
      error: undefined,
    },
  );
  log.succeeded("sm-2:7943");
  assert.deepEqual(lines.map((l) => l.level), ["warn", "info"]);
  assert.equal(
    lines[1]!.message,
    'Executor e-1 heartbeats (namespace "orders") succeed again at sm-2:7943 after 6.8 s and 17 failed attempts',
  );
  assert.deepEqual(lines[1]!.context, {
    namespace: "orders",
    executorId: "e-1",
    address: "sm-2:7943",
    durationMs: 6_800,
    attempts: 17,
  });
  assert.equal(log.failing, false);
  log.succeeded("sm-2:7943");
  assert.equal(lines.length, 2, "a success outside an outage logs nothing");
});

Deno.test("a second outage logs its own pair of lines", () => {
  const { log, lines, time } = setup();
  log.failed(unavailable);
  time.now += 100;
  log.succeeded();
  log.failed(unavailable);
  log.failed(unavailable);
  time.now += 2_000;
  log.succeeded();
  assert.deepEqual(lines.map((l) => l.level), ["warn", "info", "warn", "info"]);
  assert.match(lines[1]!.message, /after 0\.1 s and 1 failed attempt$/);
  assert.match(lines[3]!.message, /after 2\.0 s and 2 failed attempts$/);
});

Deno.test("a permanent error logs at error, once per code within an outage", () => {
  const { log, lines } = setup();
  const notFound = Object.assign(new Error('5 NOT_FOUND: Namespace "ordrs" not found'), {
    code: 5,
  });
  for (let i = 0; i < 10; i++) log.failed(notFound, "sm-1:7943");
  assert.deepEqual(lines.map((l) => l.level), ["error"]);
  assert.match(
    lines[0]!.message,
    /with NOT_FOUND: 5 NOT_FOUND: Namespace "ordrs" not found\. Retrying will not fix this/,
  );
  // An error of the SDK's model: a string code and `retryable` decide.
  const denied = { code: "PERMISSION_DENIED", retryable: false, message: "Permission denied" };
  log.failed(denied);
  log.failed(denied);
  log.failed(unavailable); // transient within the outage: no line
  assert.deepEqual(lines.map((l) => l.level), ["error", "error"]);
  assert.equal(lines[1]!.context?.code, "PERMISSION_DENIED");
});

Deno.test("an outage that starts transient and turns permanent logs the warning, then the error", () => {
  const { log, lines } = setup();
  log.failed(unavailable);
  log.failed({ code: "NAMESPACE_NOT_FOUND", retryable: false, message: "no such namespace" });
  log.succeeded();
  assert.deepEqual(lines.map((l) => l.level), ["warn", "error", "info"]);
});
