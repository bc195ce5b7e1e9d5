/**
 * Metadata selectors (`--selector hostname=worker-7`): parsing, matching, and
 * the canonical text that drain ids use.
 *
 * @module
 */
import { InvalidArgumentError } from "commander";
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
