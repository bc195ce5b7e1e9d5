/**
 * The embedded store's applied operator request ids: per namespace, id →
 * when it was applied (ms), kept in memory for the process's life.
 *
 * @module
 */
import type { RequestRetention } from "../operator_write.ts";

/**
 * Forgets the ids of `ids` beyond `retention` (older than `beforeMs`, or past
 * the newest `keep`); returns how many went.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { pruneRequestIds } from "./request_ids.ts";
 *
 * const ids = new Map([["a", 1], ["b", 2], ["c", 3]]);
 * assert.equal(pruneRequestIds(ids, { beforeMs: 2, keep: 1 }), 2);
 * assert.deepEqual([...ids.keys()], ["c"]);
 * ```
 */
export function pruneRequestIds(ids: Map<string, number>, retention: RequestRetention): number {
  const newest = [...ids].sort((a, b) => b[1] - a[1]);
  let forgotten = 0;
  for (const [i, [id, atMs]] of newest.entries()) {
    if (i >= retention.keep || atMs < retention.beforeMs) {
      ids.delete(id);
      forgotten++;
    }
  }
  return forgotten;
}
