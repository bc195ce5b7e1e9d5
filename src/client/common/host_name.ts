/**
 * The machine's host name for default ids, through `node:os`, which Deno and
 * Node.js both provide. Under Deno it needs `--allow-sys=hostname`; without
 * it (or when the name is empty) the fallback is used, never an error.
 *
 * @module
 */
import { hostname } from "node:os";

/**
 * The host name, or `fallback` when it cannot be read.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { hostName } from "./host_name.ts";
 *
 * const name = hostName("executor");
 * assert.ok(name.length > 0);
 * ```
 */
export function hostName(fallback: string): string {
  try {
    return hostname() || fallback;
  } catch {
    return fallback; // Deno without --allow-sys=hostname
  }
}
