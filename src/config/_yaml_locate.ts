/**
 * Maps zod issue paths to YAML paths and source lines. Private to the config
 * package.
 *
 * @module
 */
import { type Document, isMap, isScalar, isSeq, type LineCounter } from "yaml";

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/**
 * Writes a path the way it is read in YAML: `shardDistribution.namespaces[1].shardNum`.
 *
 * @example Usage
 * ```ts
 * import { formatYamlPath } from "./_yaml_locate.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(formatYamlPath(["shardDistribution", "namespaces", 1, "shardNum"]),
 *   "shardDistribution.namespaces[1].shardNum");
 * assert.equal(formatYamlPath(["log", "odd key"]), 'log["odd key"]');
 * ```
 *
 * @param path The segments, as in a zod issue.
 * @returns The path as text; `""` for the root.
 */
export function formatYamlPath(path: readonly PropertyKey[]): string {
  let text = "";
  for (const segment of path) {
    if (typeof segment === "number") text += `[${segment}]`;
    else if (typeof segment === "string" && IDENTIFIER.test(segment)) {
      text += text === "" ? segment : `.${segment}`;
    } else text += `[${JSON.stringify(String(segment))}]`;
  }
  return text;
}

/**
 * Finds the 1-based line of the value at `path`: the line of its key in a
 * mapping, or of its entry in a list. When part of the path is absent (a
 * missing required key), the line of the deepest present parent is returned.
 *
 * @example Usage
 * ```ts
 * import { lineOfPath } from "./_yaml_locate.ts";
 * import { LineCounter, parseDocument } from "yaml";
 * import assert from "node:assert/strict";
 *
 * const lineCounter = new LineCounter();
 * const doc = parseDocument("log:\n  level: loud\n", { lineCounter });
 * assert.equal(lineOfPath(doc, lineCounter, ["log", "level"]), 2);
 * assert.equal(lineOfPath(doc, lineCounter, ["log", "missing"]), 1);
 * ```
 *
 * @param doc The parsed document.
 * @param lineCounter The line counter `doc` was parsed with.
 * @param path The segments, as in a zod issue.
 * @returns The line, or `undefined` for an empty document.
 */
export function lineOfPath(
  doc: Document,
  lineCounter: LineCounter,
  path: readonly PropertyKey[],
): number | undefined {
  let node: unknown = doc.contents;
  let offset = startOf(node);
  for (const segment of path) {
    if (isMap(node)) {
      const pair = node.items.find((item) =>
        String(isScalar(item.key) ? item.key.value : item.key) === String(segment)
      );
      if (pair === undefined) break;
      offset = startOf(pair.key) ?? offset;
      node = pair.value;
    } else if (isSeq(node) && typeof segment === "number") {
      node = node.items[segment];
      offset = startOf(node) ?? offset;
    } else break;
  }
  return offset === undefined ? undefined : lineCounter.linePos(offset).line;
}

function startOf(node: unknown): number | undefined {
  if (typeof node !== "object" || node === null || !("range" in node)) return undefined;
  const range: unknown = node.range;
  return Array.isArray(range) && typeof range[0] === "number" ? range[0] : undefined;
}
