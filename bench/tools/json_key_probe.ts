// deno-lint-ignore-file no-console -- a reproduction prints what happened
/**
 * Shows whether this runtime's `JSON.parse` misreads an escaped object key
 * after it has parsed a key ending in a backslash (Deno 2.9.3 does; see
 * `src/core/parse_json.ts`). Exits 1 when it does, 0 when every key read back
 * right.
 *
 * Run: `deno run bench/tools/json_key_probe.ts`
 *
 * @module
 */
import { parseJson } from "../../src/core/parse_json.ts";

const cases = [String.raw`a\"`, String.raw`a\n`, String.raw`a\u0041`, String.raw`\"`];
let wrong = 0;
for (const raw of cases) {
  const seen = raw.slice(0, raw.indexOf("\\")) + String.raw`\\`; // the same prefix, then a backslash
  JSON.parse(`{"probe":1,"${seen}":2}`);
  const want = JSON.parse(`"${raw}"`) as string;
  const got = Object.keys(JSON.parse(`{"probe":1,"${raw}":2}`))[1];
  const ours = Object.keys(parseJson(`{"probe":1,"${raw}":2}`) as object)[1];
  if (got !== want) wrong++;
  console.log(
    `key "${raw}" after "${seen}": JSON.parse ${JSON.stringify(got)}, parseJson ${
      JSON.stringify(ours)
    }, want ${JSON.stringify(want)}`,
  );
}
console.log(`Deno ${Deno.version.deno}: JSON.parse misread ${wrong} of ${cases.length} keys`);
Deno.exit(wrong === 0 ? 0 : 1);
