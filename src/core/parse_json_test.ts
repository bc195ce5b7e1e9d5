import assert from "node:assert/strict";
import fc from "fast-check";
import { parseJson } from "./parse_json.ts";

const numRuns = Number(Deno.env.get("FUZZ_RUNS") ?? 300);

/** Strings heavy in what needs an escape: quotes, backslashes, controls, lone surrogates. */
const escapable = fc.oneof(
  fc.string({
    unit: fc.constantFrom('"', "\\", "\n", "\t", "\u0001", "\ud800", "/", "a", "é", "1"),
  }),
  fc.string({ unit: "binary" }),
  fc.constantFrom("__proto__", "constructor", "toString", "0", "1482"),
);

const { value: escapedJson } = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: "small", maxDepth: 4 },
    escapable,
    fc.double({ noNaN: true, noDefaultInfinity: true }).filter((n) => !Object.is(n, -0)),
    fc.integer(),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie("value")),
    fc.dictionary(escapable, tie("value"), { noNullPrototype: true }),
  ),
}));

Deno.test("parseJson gives back what JSON.stringify wrote, escaped keys included", () => {
  fc.assert(
    fc.property(escapedJson, fc.boolean(), (value, spaced) => {
      const text = spaced ? JSON.stringify(value, null, 1) : JSON.stringify(value);
      assert.deepEqual(parseJson(text), value);
    }),
    { numRuns },
  );
});

Deno.test("parseJson reads a key ending in an escape after one ending in a backslash", () => {
  // On Deno 2.9.3 JSON.parse gives the second object the key `a\`.
  JSON.parse(String.raw`{"x":1,"a\\":2}`);
  for (const raw of [String.raw`a\"`, String.raw`a\n`, String.raw`a\u0041`, String.raw`a\\`]) {
    const parsed = parseJson(`{"x":1,"${raw}":2}`) as Record<string, number>;
    assert.deepEqual(Object.keys(parsed), ["x", JSON.parse(`"${raw}"`)]);
  }
});

Deno.test("parseJson keeps __proto__ an own key, as JSON.parse does", () => {
  const parsed = parseJson(String.raw`{"__proto__":{"p":1},"q\"":2}`) as Record<string, unknown>;
  assert.equal(Object.getPrototypeOf(parsed), Object.prototype);
  assert.deepEqual(Object.getOwnPropertyDescriptor(parsed, "__proto__")?.value, { p: 1 });
  assert.equal((parsed as { p?: unknown }).p, undefined);
});

Deno.test("parseJson refuses what JSON.parse refuses", () => {
  const bad = [
    String.raw`"\x"`,
    String.raw`"\u12"`,
    String.raw`["\"",]`,
    String.raw`{"\"":1,}`,
    String.raw`{"\"" 1}`,
    String.raw`"\"`,
    String.raw`["\n" 1]`,
    '"\\n\u0001"',
    String.raw`["\t"] x`,
    String.raw`[01, "\t"]`,
    String.raw`[1., "\t"]`,
    String.raw`[tru, "\t"]`,
    String.raw`{'\t':1}`,
    String.raw`\``,
  ];
  for (const text of bad) {
    assert.throws(() => JSON.parse(text), SyntaxError, text);
    assert.throws(() => parseJson(text), SyntaxError, text);
  }
});

Deno.test("parseJson reads numbers and literals as JSON.parse does", () => {
  const text = String
    .raw`[" \" ", -0.5e-3, 1E+2, 0, -0, 12345678901234567890, true, false, null, {}, []]`;
  assert.deepEqual(parseJson(text), JSON.parse(text));
});
