/**
 * What a change of a namespace's definition does, and whether it can be
 * applied to a running namespace. Pure.
 *
 * Applied live (the next leader term plans with them): `loadBalancer`,
 * `maxMovesPerPass`, `ownershipLease`, `maxShards`, `pins` and any other
 * policy field. Refused: a change of `type` or `mode` (another shard model),
 * of `ownership` (available ↔ exclusive: executors of an available namespace
 * may run a shard on two hosts during a move, which exclusive forbids, and no
 * pass can make the running executors agree on the switch at one instant),
 * and of the replication fields (owner sets are placed once); `shardNum`
 * only with `force`.
 *
 * @module
 */
import type { NamespaceConfig } from "../config/mod.ts";
import type { NamespaceSpec } from "../config/namespace_definition.ts";

/**
 * One line per field that differs: `shardNum: 4 → 8`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { describeChanges } from "./definition_changes.ts";
 *
 * assert.deepEqual(
 *   describeChanges({ name: "o", shardNum: 4 }, { name: "o", shardNum: 8, loadBalancer: "naive" }),
 *   ["loadBalancer: (default) → \"naive\"", "shardNum: 4 → 8"],
 * );
 * ```
 */
export function describeChanges(before: NamespaceSpec, after: NamespaceSpec): string[] {
  const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])].sort();
  const show = (v: unknown) => v === undefined ? "(default)" : JSON.stringify(v);
  return keys.filter((k) => JSON.stringify(before[k]) !== JSON.stringify(after[k]))
    .map((k) => `${k}: ${show(before[k])} → ${show(after[k])}`);
}

/** The shard count of a fixed namespace; undefined otherwise. */
function shardNumOf(config: NamespaceConfig): number | undefined {
  return config.kind === "fixed" ? config.shardNum : undefined;
}

/**
 * Why `after` cannot replace the running `before`; undefined when it can.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { refusal } from "./definition_changes.ts";
 *
 * const before = { kind: "fixed", name: "o", shardNum: 4, loadBalancer: "greedy", ownership: { mode: "available" } } as const;
 * assert.equal(refusal(before, { ...before, loadBalancer: "naive" }, false), undefined);
 * assert.match(refusal(before, { ...before, shardNum: 8 }, false) ?? "", /--force/);
 * assert.equal(refusal(before, { ...before, shardNum: 8 }, true), undefined);
 * ```
 */
export function refusal(
  before: NamespaceConfig,
  after: NamespaceConfig,
  force: boolean,
): string | undefined {
  if (before.kind !== after.kind) {
    return `cannot change a ${before.kind} namespace into a ${after.kind} one while it runs; ` +
      "create a namespace with another name and move the executors to it";
  }
  // Same kind from here; a cells or range namespace may change any of its settings.
  if (before.kind === "cells" || before.kind === "range") return undefined;
  if (after.kind === "cells" || after.kind === "range") return undefined;
  if (before.ownership.mode !== after.ownership.mode) {
    return `cannot switch ownership from ${before.ownership.mode} to ${after.ownership.mode} ` +
      "while the namespace runs: the executors would disagree on whether a shard may run on " +
      "two hosts during a move; create a namespace with the new ownership and move to it " +
      "(see docs/operations.md)";
  }
  if (JSON.stringify(before.replication) !== JSON.stringify(after.replication)) {
    return "cannot change replicas, placement, zoneKey or maxOverlap while the namespace runs; " +
      "create a namespace with the new replication and move to it";
  }
  const [was, now] = [shardNumOf(before), shardNumOf(after)];
  if (was !== now && !force) {
    return `shardNum ${was} → ${now} changes which shards exist: repeat with --force ` +
      "(new shards are placed, removed shards are drained first)";
  }
  return undefined;
}
