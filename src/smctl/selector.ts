/**
 * Metadata selectors (`--selector hostname=worker-7`): parsing, matching, and
 * the canonical text that drain ids use.
 *
 * @module
 */
import { InvalidArgumentError, Option } from "commander";
import { UsageError } from "./errors.ts";

/**
 * Commander's collector for a repeatable `--selector k=v`: checks one pair and
 * appends it. A bad pair is a usage error naming the value.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { collectSelectorPair } from "./selector.ts";
 *
 * assert.equal(collectSelectorPair("zone=b", ["a=1"]).length, 2);
 * ```
 */
export function collectSelectorPair(value: string, previous: string[] = []): string[] {
  const at = value.indexOf("=");
  if (at <= 0) {
    throw new InvalidArgumentError(`expected key=value, e.g. hostname=worker-7`);
  }
  return [...previous, value];
}

/**
 * The selector map of `k=v` pairs (the value may contain `=`). The same key
 * twice with different values is a usage error: nothing could match both.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { selectorFrom } from "./selector.ts";
 *
 * assert.equal(selectorFrom(["hostname=worker-7"]).hostname, "worker-7");
 * ```
 */
export function selectorFrom(pairs: readonly string[]): Record<string, string> {
  const selector: Record<string, string> = {};
  for (const pair of pairs) {
    const at = pair.indexOf("=");
    if (at <= 0) {
      throw new UsageError(`invalid --selector ${JSON.stringify(pair)}: expected key=value`);
    }
    const key = pair.slice(0, at);
    const value = pair.slice(at + 1);
    const known = selector[key];
    if (known !== undefined && known !== value) {
      throw new UsageError(
        `--selector gives ${JSON.stringify(key)} twice (${JSON.stringify(known)} and ${
          JSON.stringify(value)
        }); no executor can match both`,
      );
    }
    selector[key] = value;
  }
  return selector;
}

/**
 * Whether `metadata` has every pair of `selector` (the service's rule).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { selectorMatches } from "./selector.ts";
 *
 * assert.ok(selectorMatches({ hostname: "w7", zone: "b" }, { hostname: "w7" }));
 * ```
 */
export function selectorMatches(
  metadata: Readonly<Record<string, string>>,
  selector: Readonly<Record<string, string>>,
): boolean {
  return Object.entries(selector).every(([k, v]) =>
    Object.hasOwn(metadata, k) && metadata[k] === v
  );
}

/**
 * The `-l, --selector key=value[,key=value]` option of list commands
 * (repeatable; every pair must match). `fields` names what can be selected on,
 * for the help text.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { Command } from "commander";
 * import { listSelectorOption } from "./selector.ts";
 *
 * const list = new Command("list").addOption(listSelectorOption("metadata keys"));
 * list.parse(["-l", "zone=b,rack=3", "-l", "os=linux"], { from: "user" });
 * assert.deepEqual(list.opts().selector, ["zone=b", "rack=3", "os=linux"]);
 * ```
 */
export function listSelectorOption(fields: string): Option {
  return new Option(
    "-l, --selector <key=value,...>",
    `list only the rows whose ${fields} match every pair (repeatable)`,
  ).argParser((value: string, previous: string[] = []) =>
    value.split(",").map((pair) => pair.trim()).filter((pair) => pair !== "")
      .reduce((all, pair) => collectSelectorPair(pair, all), previous)
  );
}

/**
 * Keeps the rows whose fields (from `fieldsOf`) match every pair of `pairs`;
 * all rows without pairs.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { selectRows } from "./selector.ts";
 *
 * const rows = [{ id: "a", zone: "b" }, { id: "c", zone: "d" }];
 * assert.deepEqual(selectRows(rows, ["zone=b"], (r) => ({ zone: r.zone })), [rows[0]]);
 * ```
 */
export function selectRows<T>(
  rows: readonly T[],
  pairs: readonly string[] | undefined,
  fieldsOf: (row: T) => Readonly<Record<string, string>>,
): T[] {
  if (!pairs || pairs.length === 0) return [...rows];
  const selector = selectorFrom(pairs);
  return rows.filter((row) => selectorMatches(fieldsOf(row), selector));
}
