/**
 * `JSON.parse` that reads object keys right on the pinned runtime.
 *
 * Deno 2.9.3's V8 can read a key written with an escape at its end as a key
 * seen before, in the same place of an object, that ends in a backslash: once
 * `{"x":1,"a\\":2}` (the key `a\`) was parsed, `{"x":1,"a\"":2}` may come back
 * with the key `a\` instead of `a"`, and the same goes for `"a\n"`,
 * `"a\u0041"` and so on (found by the property test of
 * `store/etcd/index_json.ts`; `bench/tools/json_key_probe.ts` reproduces it).
 * Executor ids, shard keys and metadata keys are chosen by users, so a stored
 * record could be read back under another executor's id.
 * Only a text with a backslash can hold an escape, so every other text goes to
 * `JSON.parse` unchanged and a text with one is read by the small parser
 * below, which builds the same value.
 *
 * @module
 */

/**
 * Parses `text` as `JSON.parse` does (same value, `SyntaxError` for what it
 * refuses), reading escaped object keys correctly.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseJson } from "./parse_json.ts";
 *
 * JSON.parse('{"x":1,"a\\\\":2}'); // a key ending in a backslash seen first
 * assert.deepEqual(Object.keys(parseJson('{"x":1,"a\\"":2}') as object), ["x", 'a"']);
 * ```
 */
export function parseJson(text: string): unknown {
  if (!text.includes("\\")) return JSON.parse(text);
  const reader = new Reader(text);
  reader.space();
  const value = reader.value();
  reader.space();
  if (reader.at < text.length) reader.fail("unexpected text after the value");
  return value;
}

const NUMBER = /-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/y;
const ESCAPES: Record<string, string> = {
  '"': '"',
  "\\": "\\",
  "/": "/",
  b: "\b",
  f: "\f",
  n: "\n",
  r: "\r",
  t: "\t",
};

class Reader {
  at = 0;
  constructor(readonly text: string) {}

  fail(what: string, at: number = this.at): never {
    throw new SyntaxError(`JSON: ${what} at position ${at}`);
  }

  space(): void {
    const text = this.text;
    let at = this.at;
    for (;;) {
      const c = text.charCodeAt(at);
      if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) at++;
      else break;
    }
    this.at = at;
  }

  value(): unknown {
    const c = this.text[this.at];
    if (c === "{") return this.object();
    if (c === "[") return this.array();
    if (c === '"') return this.string();
    if (c === "t") return this.word("true", true);
    if (c === "f") return this.word("false", false);
    if (c === "n") return this.word("null", null);
    return this.number();
  }

  word<T>(word: string, value: T): T {
    if (!this.text.startsWith(word, this.at)) this.fail("unexpected token");
    this.at += word.length;
    return value;
  }

  number(): number {
    NUMBER.lastIndex = this.at;
    const found = NUMBER.exec(this.text);
    if (found === null) {
      this.fail(this.at < this.text.length ? "unexpected token" : "unexpected end");
    }
    this.at += found[0].length;
    return Number(found[0]);
  }

  expect(char: string): void {
    this.space();
    if (this.text[this.at] !== char) this.fail(`expected '${char}'`);
    this.at++;
  }

  array(): unknown[] {
    const items: unknown[] = [];
    this.list("]", () => items.push(this.value()));
    return items;
  }

  object(): Record<string, unknown> {
    const object: Record<string, unknown> = {};
    this.list("}", () => {
      if (this.text[this.at] !== '"') this.fail("expected a key");
      const key = this.string();
      this.expect(":");
      this.space();
      const value = this.value();
      // `JSON.parse` defines an own property even for `__proto__`.
      if (key === "__proto__") {
        Object.defineProperty(object, key, {
          value,
          writable: true,
          enumerable: true,
          configurable: true,
        });
      } else object[key] = value;
    });
    return object;
  }

  /** Reads the items of an array or object, `item` each, up to `close`. */
  list(close: "]" | "}", item: () => void): void {
    this.at++;
    this.space();
    if (this.text[this.at] === close) {
      this.at++;
      return;
    }
    for (;;) {
      this.space();
      item();
      this.space();
      const c = this.text[this.at++];
      if (c === close) return;
      if (c !== ",") this.fail(`expected ',' or '${close}'`, this.at - 1);
    }
  }

  string(): string {
    const text = this.text;
    let at = this.at + 1;
    let out = "";
    let from = at;
    for (;;) {
      const c = text.charCodeAt(at);
      if (c === 0x22) break;
      if (Number.isNaN(c)) this.fail("unterminated string", at);
      if (c < 0x20) this.fail("bad control character in string", at);
      if (c !== 0x5c) {
        at++;
        continue;
      }
      out += text.slice(from, at);
      const e = text[at + 1];
      if (e === "u") {
        const hex = text.slice(at + 2, at + 6);
        if (!/^[0-9a-fA-F]{4}$/.test(hex)) this.fail("bad unicode escape", at);
        out += String.fromCharCode(parseInt(hex, 16));
        at += 6;
      } else {
        const plain = e === undefined ? undefined : ESCAPES[e];
        if (plain === undefined) this.fail("bad escape", at);
        out += plain;
        at += 2;
      }
      from = at;
    }
    this.at = at + 1;
    return out + text.slice(from, at);
  }
}
