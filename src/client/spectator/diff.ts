/**
 * What differs between two placements, for `Spectator.changes()`.
 *
 * @module
 */
import type { ChangeSet, Placement, ShardMove } from "./types.ts";

const NONE: Placement = Object.freeze({
  version: 0,
  receivedAtMs: 0,
  executors: new Map(),
  owners: new Map(),
  ownerSets: new Map(),
});

/**
 * The shards added, removed and moved, and the executors that appeared,
 * disappeared or changed metadata, going from `before` (undefined: nothing)
 * to `after`. Costs one pass over each placement.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { applyUpdate } from "./placement.ts";
 * import { diffPlacements } from "./diff.ts";
 *
 * const a = applyUpdate(undefined, { kind: "snapshot", executors: [{ executorId: "a", metadata: {}, shards: ["0", "1"] }] }, 0);
 * const b = applyUpdate(a, {
 *   kind: "snapshot",
 *   executors: [{ executorId: "a", metadata: {}, shards: ["0"] }, { executorId: "b", metadata: {}, shards: ["1"] }],
 * }, 1);
 * const change = diffPlacements(a, b);
 * assert.equal(change.moved[0]?.shard, "1");
 * assert.equal(change.moved[0]?.to, "b");
 * ```
 */
export function diffPlacements(before: Placement | undefined, after: Placement): ChangeSet {
  const old = before ?? NONE;
  const added: string[] = [];
  const removed: string[] = [];
  const moved: ShardMove[] = [];
  const executorsChanged: string[] = [];
  for (const [shard, owner] of after.owners) {
    const was = old.owners.get(shard);
    if (was === undefined) added.push(shard);
    else if (was.executorId !== owner.executorId) {
      moved.push({ shard, from: was.executorId, to: owner.executorId });
    }
  }
  for (const shard of old.owners.keys()) {
    if (!after.owners.has(shard)) removed.push(shard);
  }
  for (const [id, executor] of after.executors) {
    const was = old.executors.get(id);
    if (was === undefined || !sameMetadata(was.metadata, executor.metadata)) {
      executorsChanged.push(id);
    }
  }
  for (const id of old.executors.keys()) {
    if (!after.executors.has(id)) executorsChanged.push(id);
  }
  return { added, removed, moved, executorsChanged };
}

/**
 * Whether `change` changes nothing.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { isEmptyChange } from "./diff.ts";
 *
 * assert.ok(isEmptyChange({ added: [], removed: [], moved: [], executorsChanged: [] }));
 * ```
 */
export function isEmptyChange(change: ChangeSet): boolean {
  return change.added.length === 0 && change.removed.length === 0 &&
    change.moved.length === 0 && change.executorsChanged.length === 0;
}

/**
 * Whether two metadata records hold the same keys and values.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { sameMetadata } from "./diff.ts";
 *
 * assert.ok(sameMetadata({ a: "1" }, { a: "1" }));
 * assert.ok(!sameMetadata({ a: "1" }, {}));
 * ```
 */
export function sameMetadata(
  a: Readonly<Record<string, string>>,
  b: Readonly<Record<string, string>>,
): boolean {
  if (a === b) return true;
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  return keys.every((key) => Object.hasOwn(b, key) && a[key] === b[key]);
}
