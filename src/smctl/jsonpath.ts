/**
 * `-o jsonpath=TEMPLATE`: a small subset of kubectl's JSONPath templates,
 * applied to the JSON document a command would print with `-o json`.
 *
 * Supported, inside `{...}`:
 * - a path from the current object: `.a.b`, `.items[0]`, `.items[-1]`,
 *   `.items[*].id`, `.a['key with.dots']` (a leading `$` or `@` is allowed);
 * - a string literal: `{"\n"}`, `{"\t"}`, `{","}` (escapes `\n \t \r \\ \"`);
 * - `{range PATH}...{end}`: the inside once per result of PATH, with paths
 *   inside relative to that result.
 *
 * Text outside braces is printed as is. Several results of one path are
 * joined with a space; strings print bare, everything else as JSON; a
 * missing key prints nothing. Filters (`[?()]`), slices (`[1:3]`),
 * recursive descent (`..`), unions and functions are refused with an error
 * naming them.
 *
 * @module
 */
import { UsageError } from "./errors.ts";

type Step = { key: string } | { index: number } | { all: true };
type Node =
  | { text: string }
  | { path: Step[] }
  | { range: Step[]; body: Node[] };

/** A parsed template, ready to apply to documents. */
export interface JsonPathTemplate {
  /** The template as given. */
  readonly source: string;
  /** The text the template makes of `document`. */
  apply(document: unknown): string;
}

/**
 * Parses a template; a `UsageError` names what is wrong or unsupported.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseJsonPath } from "./jsonpath.ts";
 *
 * const doc = { items: [{ id: "a", n: 1 }, { id: "b", n: 2 }], meta: { name: "x" } };
 * assert.equal(parseJsonPath("{.meta.name}").apply(doc), "x");
 * assert.equal(parseJsonPath("{.items[*].id}").apply(doc), "a b");
 * assert.equal(parseJsonPath('{range .items[*]}{.id}={.n}{"\\n"}{end}').apply(doc), "a=1\nb=2\n");
 * assert.throws(() => parseJsonPath("{.items[?(@.n>1)]}"), /filters .* are not supported/);
 * ```
 */
export function parseJsonPath(source: string): JsonPathTemplate {
  const root: Node[] = [];
  const stack: Node[][] = [root];
  let i = 0;
  while (i < source.length) {
    const open = source.indexOf("{", i);
    if (open === -1) {
      stack.at(-1)!.push({ text: source.slice(i) });
      break;
    }
    if (open > i) stack.at(-1)!.push({ text: source.slice(i, open) });
    const close = closingBrace(source, open);
    const inner = source.slice(open + 1, close).trim();
    i = close + 1;
    if (inner === "end") {
      if (stack.length === 1) fail(source, "{end} without a {range ...}");
      stack.pop();
    } else if (inner.startsWith("range ")) {
      const node = { range: parsePath(inner.slice(6).trim(), source), body: [] };
      stack.at(-1)!.push(node);
      stack.push(node.body);
    } else if (inner.startsWith('"')) {
      stack.at(-1)!.push({ text: stringLiteral(inner, source) });
    } else {
      stack.at(-1)!.push({ path: parsePath(inner, source) });
    }
  }
  if (stack.length > 1) fail(source, "{range ...} without its {end}");
  return { source, apply: (document) => render(root, document) };
}

function fail(source: string, what: string): never {
  throw new UsageError(`-o jsonpath=${source}: ${what}`);
}

function closingBrace(source: string, open: number): number {
  let quoted = false;
  for (let j = open + 1; j < source.length; j++) {
    const c = source[j];
    if (quoted && c === "\\") j++;
    else if (c === '"') quoted = !quoted;
    else if (!quoted && c === "}") return j;
  }
  return fail(source, `the "{" at position ${open + 1} is never closed`);
}

function stringLiteral(inner: string, source: string): string {
  if (inner.length < 2 || !inner.endsWith('"')) fail(source, `bad string literal ${inner}`);
  const escapes: Record<string, string> = { n: "\n", t: "\t", r: "\r", "\\": "\\", '"': '"' };
  return inner.slice(1, -1).replace(/\\(.)/g, (_, c: string) => {
    const out = escapes[c];
    if (out === undefined) fail(source, `unsupported escape \\${c} in ${inner}`);
    return out;
  });
}

function parsePath(text: string, source: string): Step[] {
  let rest = text.replace(/^[$@]/, "");
  if (rest === "") return [];
  const steps: Step[] = [];
  while (rest.length > 0) {
    let m: RegExpMatchArray | null;
    if (rest.startsWith("..")) fail(source, `recursive descent (..) is not supported in ${text}`);
    if ((m = rest.match(/^\.([A-Za-z0-9_-]+)/))) steps.push({ key: m[1]! });
    else if ((m = rest.match(/^\.\*/)) || (m = rest.match(/^\[\*\]/))) steps.push({ all: true });
    else if ((m = rest.match(/^\[(-?\d+)\]/))) steps.push({ index: Number(m[1]) });
    else if ((m = rest.match(/^\['([^']*)'\]/)) || (m = rest.match(/^\["([^"]*)"\]/))) {
      steps.push({ key: m[1]! });
    } else if (rest.startsWith("[?")) {
      fail(source, `filters ([?(...)]) are not supported in ${text}`);
    } else if (/^\[-?\d*:/.test(rest)) {
      fail(source, `slices ([a:b]) are not supported in ${text}`);
    } else if (/^\[[^\]]*,/.test(rest)) {
      fail(source, `unions ([a,b]) are not supported in ${text}`);
    } else {
      fail(
        source,
        `cannot read ${JSON.stringify(rest)} in ${JSON.stringify(text)}; supported: ` +
          `.key, ['key'], [N], [*], {range ...}{end}, "literal"`,
      );
    }
    rest = rest.slice(m[0].length);
  }
  return steps;
}

function select(steps: readonly Step[], value: unknown): unknown[] {
  let current = [value];
  for (const step of steps) {
    const next: unknown[] = [];
    for (const v of current) {
      if ("key" in step) {
        if (
          v !== null && typeof v === "object" && !Array.isArray(v) && Object.hasOwn(v, step.key)
        ) {
          next.push((v as Record<string, unknown>)[step.key]);
        }
      } else if ("index" in step) {
        if (Array.isArray(v)) {
          const item = v.at(step.index);
          if (item !== undefined) next.push(item);
        }
      } else if (Array.isArray(v)) next.push(...v);
      else if (v !== null && typeof v === "object") next.push(...Object.values(v));
    }
    current = next;
  }
  return current;
}

function render(nodes: readonly Node[], current: unknown): string {
  let out = "";
  for (const node of nodes) {
    if ("text" in node) out += node.text;
    else if ("path" in node) out += select(node.path, current).map(show).join(" ");
    else for (const item of select(node.range, current)) out += render(node.body, item);
  }
  return out;
}

function show(value: unknown): string {
  return typeof value === "string" ? value : JSON.stringify(value) ?? "";
}
