import assert from "node:assert/strict";
import { Output, plain, type Sink } from "./output.ts";

function sink(terminal: boolean, chunk = Infinity): Sink & { text(): string } {
  const parts: Uint8Array[] = [];
  return {
    isTerminal: () => terminal,
    writeSync(bytes) {
      const n = Math.min(bytes.length, chunk);
      parts.push(bytes.slice(0, n));
      return n;
    },
    text: () => parts.map((p) => new TextDecoder().decode(p)).join(""),
  };
}

Deno.test("result prints the human text, or one JSON document with --json", () => {
  const human = sink(false);
  new Output({ stdout: human, stderr: sink(false) }).result({ a: 1 }, () => "A is 1");
  assert.equal(human.text(), "A is 1\n");
  const machine = sink(false);
  new Output({ json: true, stdout: machine, stderr: sink(false) }).result({ a: 1 }, () => "no");
  assert.deepEqual(JSON.parse(machine.text()), { a: 1 });
});

Deno.test("warnings go to stderr with the program's name", () => {
  const err = sink(false);
  new Output({ stdout: sink(false), stderr: err }).warn("careful");
  assert.equal(err.text(), "smctl: warning: careful\n");
});

Deno.test("colour follows the terminal and NO_COLOR; short writes are completed", () => {
  const out = sink(true, 3);
  const coloured = new Output({ stdout: out, stderr: sink(false), noColor: undefined });
  assert.equal(coloured.palette.enabled, true);
  coloured.line("abcdefgh");
  assert.equal(out.text(), "abcdefgh\n");
  assert.equal(
    new Output({ stdout: sink(true), stderr: sink(false), noColor: "1" }).palette.enabled,
    false,
  );
  assert.equal(
    new Output({ stdout: sink(false), stderr: sink(true), noColor: undefined }).palette.enabled,
    false,
  );
});

Deno.test("-o yaml prints one YAML document, -o wide asks for the wide table", async () => {
  const { parse } = await import("yaml");
  const yaml = sink(false);
  const out = new Output({ format: "yaml", stdout: yaml, stderr: sink(false) });
  assert.equal(out.json, true, "YAML is for programs too");
  out.result({ a: 1, when: new Date(0) }, () => "no");
  assert.deepEqual(parse(yaml.text()), { a: 1, when: "1970-01-01T00:00:00.000Z" });
  const wide = sink(false);
  new Output({ format: "wide", stdout: wide, stderr: sink(false) }).result(
    {},
    (isWide) => isWide ? "WIDE" : "narrow",
  );
  assert.equal(wide.text(), "WIDE\n");
  const records = sink(false);
  const stream = new Output({ format: "yaml", stdout: records, stderr: sink(false) });
  stream.record({ n: 1 });
  stream.record({ n: 2 });
  assert.equal(records.text(), "---\nn: 1\n---\nn: 2\n");
});

Deno.test("plain gives what JSON.stringify writes, escaped executor ids kept", () => {
  const at = new Date(Date.UTC(2026, 11, 3));
  const values: unknown[] = [
    undefined,
    null,
    NaN,
    "x",
    [1, undefined, () => 1, Infinity, [at]],
    { a: undefined, f: () => 1, d: at, n: -0, nested: { "a\\": 1, 'a"': { s: Symbol("s") } } },
    JSON.parse('{"__proto__":{"p":1}}'),
  ];
  for (const value of values) {
    assert.deepEqual(plain(value), JSON.parse(JSON.stringify(value ?? null)));
  }
  // Read back right where JSON.parse, after a key `a\`, can give `a\` again.
  assert.deepEqual(plain({ x: 1, "a\\": 1 }), { x: 1, "a\\": 1 });
  assert.deepEqual(Object.keys(plain({ x: 1, 'a"': 1 }) as object), ["x", 'a"']);
});
