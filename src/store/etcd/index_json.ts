/**
 * `JSON.parse` for the stored assignment formats, whose arrays hold only
 * strings (shard keys and executor ids), with the strings that read as shard
 * numbers taken from the shared keys of `core/index_keys.ts` instead of made
 * anew. The stored text is unchanged; only reading it is cheaper: 1,000,000
 * numeric shard keys parse and enter a `Map` in ~0.4 s instead of ~1.6 s in a
 * process that already holds them (see `index_keys.ts` for why).
 *
 * How: an array element that is a quoted canonical integer (`"0"`, `"17"`,
 * never `"007"` or `"1e3"`) is unquoted before parsing, so the parser makes a
 * number and no string, and each number found in an array afterwards becomes
 * {@linkcode indexKey}'s string. An element is recognised by what surrounds
 * it: a quote right after `[` or `,` opens a string (inside a JSON string a
 * quote is always escaped), and one followed by `,` or `]` closes an element
 * (an object key is followed by `:`). The text is then read by
 * {@linkcode parseJson}, which works around a key misread of the runtime's
 * `JSON.parse`.
 *
 * @module
 */
import { indexKey } from "../../core/index_keys.ts";
import { parseJson } from "../../core/parse_json.ts";

// Up to 15 digits: every such integer is safe, so String(Number(s)) === s.
const QUOTED_INDEX = /(?<=[[,])"(0|[1-9][0-9]{0,14})"(?=[,\]])/g;

/**
 * Parses `text` as `JSON.parse` would, for JSON whose arrays hold only
 * strings: the result is equal, with numeric strings in arrays shared.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseIndexJson } from "./index_json.ts";
 *
 * const text = '{"a":{"e1":["0","007","x,1"]},"t":5,"k":"3"}';
 * assert.deepEqual(parseIndexJson(text), JSON.parse(text));
 * ```
 */
export function parseIndexJson(text: string): unknown {
  const parsed: unknown = parseJson(text.replace(QUOTED_INDEX, "$1"));
  restoreStrings(parsed);
  return parsed;
}

function restoreStrings(value: unknown): void {
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const item: unknown = value[i];
      if (typeof item === "number") value[i] = indexKey(item);
      else if (item !== null && typeof item === "object") restoreStrings(item);
    }
  } else if (value !== null && typeof value === "object") {
    for (const item of Object.values(value)) {
      if (item !== null && typeof item === "object") restoreStrings(item);
    }
  }
}
