import assert from "node:assert/strict";
import { formatDuration, parseDuration } from "./duration.ts";

const VALID: ReadonlyArray<[string, number]> = [
  ["0", 0],
  ["0s", 0],
  ["1ns", 0.000001],
  ["500us", 0.5],
  ["500µs", 0.5],
  ["500μs", 0.5],
  ["250ms", 250],
  ["1.5ms", 1.5],
  ["1s", 1_000],
  ["2s", 2_000],
  ["1.5s", 1_500],
  ["1.1s", 1_100],
  [".5s", 500],
  ["5.s", 5_000],
  ["1m", 60_000],
  ["1m30s", 90_000],
  ["1h", 3_600_000],
  ["1.5h", 5_400_000],
  ["2h45m30.5s", 9_930_500],
  ["1s500ms", 1_500],
  ["60s", 60_000],
];

for (const [text, ms] of VALID) {
  Deno.test(`parseDuration reads ${JSON.stringify(text)} as ${ms}ms`, () => {
    assert.equal(parseDuration(text), ms);
  });
}

const INVALID: ReadonlyArray<[string, ErrorConstructor, RegExp]> = [
  ["", TypeError, /empty/],
  ["60", TypeError, /missing unit/],
  ["1m30", TypeError, /missing unit/],
  ["-1s", RangeError, /negative/],
  ["+1s", TypeError, /expected a number/],
  ["abc", TypeError, /expected a number/],
  ["s", TypeError, /expected a number/],
  [".s", TypeError, /expected a number/],
  ["5d", TypeError, /unknown unit "d"/],
  ["1e3s", TypeError, /unknown unit "e"/],
  ["1 s", TypeError, /unknown unit " s"/],
  ["1S", TypeError, /unknown unit "S"/],
  ["9999999999999h", RangeError, /too large/],
];

for (const [text, type, pattern] of INVALID) {
  Deno.test(`parseDuration rejects ${JSON.stringify(text)} with a ${type.name}`, () => {
    assert.throws(() => parseDuration(text), (error: unknown) => {
      assert.ok(error instanceof type);
      assert.match(error.message, pattern);
      assert.ok(error.message.includes(JSON.stringify(text)), "message names the text");
      return true;
    });
  });
}

Deno.test("parseDuration rejects a value that is not a string", () => {
  assert.throws(() => parseDuration(60 as unknown as string), TypeError);
});

const FORMATTED: ReadonlyArray<[number, string]> = [
  [0, "0s"],
  [0.000001, "1ns"],
  [0.5, "500us"],
  [1.5, "1.5ms"],
  [250, "250ms"],
  [1_000, "1s"],
  [1_500, "1.5s"],
  [60_000, "1m"],
  [90_000, "1m30s"],
  [3_600_000, "1h"],
  [3_605_000, "1h5s"],
  [9_930_500, "2h45m30.5s"],
  [-1_500, "-1.5s"],
];

for (const [ms, text] of FORMATTED) {
  Deno.test(`formatDuration writes ${ms}ms as ${JSON.stringify(text)}`, () => {
    assert.equal(formatDuration(ms), text);
  });
}

Deno.test("formatDuration output parses back to the same value", () => {
  for (const [ms] of FORMATTED.filter(([ms]) => ms >= 0)) {
    assert.equal(parseDuration(formatDuration(ms)), ms);
  }
});

Deno.test("formatDuration rejects values that are not finite", () => {
  assert.throws(() => formatDuration(Number.NaN), RangeError);
  assert.throws(() => formatDuration(Infinity), RangeError);
});

Deno.test("the command-line syntax reads ms, s, m and h, rounded to a whole millisecond", () => {
  const cli = { syntax: "command-line" } as const;
  assert.equal(parseDuration(" 10s ", cli), 10_000);
  assert.equal(parseDuration("1m30s", cli), 90_000);
  assert.equal(parseDuration("1.5m", cli), 90_000);
  assert.equal(parseDuration("1.0004s", cli), 1_000);
});

Deno.test("the command-line syntax refuses what the Go syntax reads, with its own messages", () => {
  const cli = { syntax: "command-line" } as const;
  for (const text of ["0", "500us", "1ns", ".5s", "5.s", "-1s", " ", "1e3s"]) {
    assert.throws(
      () => parseDuration(text, cli),
      new TypeError(`expected a duration such as 500ms, 5s or 2m, got ${JSON.stringify(text)}`),
    );
  }
  for (const text of ["0s", "0.4ms"]) {
    assert.throws(
      () => parseDuration(text, cli),
      new TypeError(`expected a duration above zero, got ${JSON.stringify(text)}`),
    );
  }
});

Deno.test("the short style keeps two units and shows negative values as zero", () => {
  const short = { style: "short" } as const;
  assert.equal(formatDuration(-5, short), "0ms");
  assert.equal(formatDuration(9_990, short), "10s");
  assert.equal(formatDuration(90_500, short), "1m30s");
  assert.equal(formatDuration(4 * 86_400_000 + 3_600_000, short), "4d1h");
});

Deno.test("an unknown syntax or style is a TypeError naming it", () => {
  assert.throws(
    () => parseDuration("1s", { syntax: "yaml" as "go" }),
    /syntax must be "go" or "command-line", got "yaml"/,
  );
  assert.throws(
    () => formatDuration(1, { style: "long" as "go" }),
    /style must be "go" or "short", got "long"/,
  );
});
