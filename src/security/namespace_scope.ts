/**
 * Which namespaces a rule of `security.auth` covers: `namespaces: [name or
 * glob]`, where `*` stands for any run of characters and `?` for one.
 * Absent: every namespace. Pure: no I/O.
 *
 * @module
 */

/** The namespaces a grant covers; `undefined` covers all. */
export type NamespaceScope = readonly string[] | undefined;

const cache = new Map<string, RegExp>();

/** The anchored regular expression of one name or glob. */
function patternOf(glob: string): RegExp {
  let pattern = cache.get(glob);
  if (!pattern) {
    const body = [...glob].map((c) =>
      c === "*" ? ".*" : c === "?" ? "." : c.replace(/[.+^${}()|[\]\\]/g, "\\$&")
    ).join("");
    pattern = new RegExp(`^${body}$`, "u");
    cache.set(glob, pattern);
  }
  return pattern;
}

/**
 * Whether `scope` covers `namespace`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { inScope } from "./namespace_scope.ts";
 *
 * assert.ok(inScope(["team-a-*", "jobs"], "team-a-orders"));
 * assert.ok(inScope(["team-a-*", "jobs"], "jobs"));
 * assert.ok(!inScope(["team-a-*", "jobs"], "team-b-orders"));
 * assert.ok(inScope(undefined, "anything"));
 * ```
 */
export function inScope(scope: NamespaceScope, namespace: string): boolean {
  if (scope === undefined) return true;
  return scope.some((glob) => patternOf(glob).test(namespace));
}

/**
 * A scope written for people: `every namespace`, or the names and globs.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { describeScope } from "./namespace_scope.ts";
 *
 * assert.equal(describeScope(["a", "b-*"]), 'namespaces "a", "b-*"');
 * ```
 */
export function describeScope(scope: NamespaceScope): string {
  if (scope === undefined) return "every namespace";
  if (scope.length === 0) return "no namespace";
  return `namespaces ${scope.map((s) => JSON.stringify(s)).join(", ")}`;
}
