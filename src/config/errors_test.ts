import assert from "node:assert/strict";
import { ConfigError, formatConfigIssue } from "./errors.ts";

Deno.test("formatConfigIssue leaves out what is unknown", () => {
  const cases: ReadonlyArray<[Parameters<typeof formatConfigIssue>, string]> = [
    [[{ path: "a.b", line: 3, message: "bad" }, "f.yaml"], "f.yaml:3: a.b: bad"],
    [[{ path: "a.b", message: "bad" }, "f.yaml"], "f.yaml: a.b: bad"],
    [[{ path: "a.b", line: 3, message: "bad" }], "line 3: a.b: bad"],
    [[{ path: "", line: 3, message: "bad" }, "f.yaml"], "f.yaml:3: bad"],
    [[{ path: "", message: "bad" }], "bad"],
  ];
  for (const [args, expected] of cases) assert.equal(formatConfigIssue(...args), expected);
});

Deno.test("ConfigError lists every issue and exposes the first one's path and line", () => {
  const cause = new Error("underlying");
  const error = new ConfigError([
    { path: "log.level", line: 30, message: "first" },
    { path: "server", message: "second" },
  ], { source: "c.yaml", cause });
  assert.ok(error instanceof Error);
  assert.equal(error.name, "ConfigError");
  assert.equal(error.message, "c.yaml:30: log.level: first\nc.yaml: server: second");
  assert.equal(error.path, "log.level");
  assert.equal(error.line, 30);
  assert.equal(error.source, "c.yaml");
  assert.equal(error.issues.length, 2);
  assert.equal(error.cause, cause);
});

Deno.test("ConfigError without a line or source leaves them undefined", () => {
  const error = new ConfigError([{ path: "", message: "bad" }]);
  assert.equal(error.line, undefined);
  assert.equal(error.source, undefined);
  assert.equal(error.cause, undefined);
});

Deno.test("ConfigError needs at least one issue", () => {
  assert.throws(() => new ConfigError([]), RangeError);
});
