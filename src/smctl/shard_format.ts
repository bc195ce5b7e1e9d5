/**
 * Human output of the `shard` commands.
 *
 * @module
 */
import { formatLoad, formatPairs } from "./cells.ts";
import { palette as makePalette } from "./colour.ts";
import type { ShardModel } from "./model.ts";
import { renderKeyValues } from "./table.ts";
import { ago, shortTime } from "./time.ts";

const PLAIN = makePalette(false);

/**
 * `shard owner`: the owner and its metadata.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { shardOwnerText } from "./shard_format.ts";
 *
 * const text = shardOwnerText({ shardKey: "7", owner: "a", metadata: {} });
 * assert.equal(text, "Shard     7\nOwner     a\nMetadata  -");
 * ```
 */
export function shardOwnerText(
  answer: { shardKey: string; owner: string; metadata: Readonly<Record<string, string>> },
  paint = PLAIN,
): string {
  return renderKeyValues([
    ["Shard", answer.shardKey],
    ["Owner", paint.cyan(answer.owner)],
    ["Metadata", formatPairs(answer.metadata, "\n")],
  ], { palette: paint });
}

/**
 * `shard inspect`: owner, load, status, fencing revision and when it moved.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { shardInspectText } from "./shard_format.ts";
 *
 * const text = shardInspectText({
 *   namespace: "ns", shardKey: "7", owner: "a", metadata: { address: "10.0.0.5:8080" }, load: 1.5,
 *   status: "READY", assignedRevision: 42, assignedAt: "1970-01-01T00:00:01Z",
 * }, 61_000);
 * assert.equal(text.split("\n")[5], "Assigned revision  42");
 * assert.equal(text.split("\n")[6], "Assigned at        1970-01-01 00:00:01Z (1m ago)");
 * ```
 */
export function shardInspectText(shard: ShardModel, now: number, paint = PLAIN): string {
  if (shard.drained) {
    return renderKeyValues([
      ["Shard", shard.shardKey],
      ["Namespace", shard.namespace],
      ["Owner", paint.dim("none")],
      [
        "Drain",
        shard.quarantined
          ? paint.red(
            "quarantined: a poison shard (too many executors failed with it); no owner " +
              "until `shard undrain`",
          )
          : paint.yellow("drained by an operator: no owner until `shard undrain`"),
      ],
    ], { palette: paint });
  }
  const at = shard.assignedAt === null ? null : Date.parse(shard.assignedAt);
  return renderKeyValues([
    ["Shard", shard.shardKey],
    ["Namespace", shard.namespace],
    ["Owner", paint.cyan(shard.owner)],
    ...(shard.owners ? [["All owners", shard.owners.join(", ")] as [string, string]] : []),
    ["Load", formatLoad(shard.load)],
    [
      "Status",
      shard.notRunning
        ? paint.red(
          `NOT RUNNING: owned, and its owner does not run it (${
            shard.status === null ? "not reported" : `reported ${shard.status}`
          })`,
        )
        : shard.status ?? paint.dim("not reported"),
    ],
    ["Assigned revision", String(shard.assignedRevision)],
    ["Assigned at", at === null ? "-" : `${shortTime(at)} (${ago(at, now)})`],
    ...(shard.incoming
      ? [["Handover", handoverText(shard.incoming, now)] as [string, string]]
      : []),
    ["Owner metadata", formatPairs(shard.metadata, "\n")],
  ], { palette: paint });
}

/**
 * A sentence about shards changed by `shard drain`/`shard undrain`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { shardChangeText } from "./shard_format.ts";
 *
 * assert.equal(shardChangeText("Drained", "ns", ["3", "5"]), 'Drained 2 shards in namespace "ns": 3, 5');
 * ```
 */
export function shardChangeText(verb: string, namespace: string, keys: readonly string[]): string {
  const what = keys.length === 1 ? "1 shard" : `${keys.length} shards`;
  const list = keys.length === 0 ? "" : `: ${keys.join(", ")}`;
  return `${verb} ${what} in namespace ${JSON.stringify(namespace)}${list}`;
}

/**
 * `shard drained`: one key a line under a header, or a sentence when none;
 * the shards the leader quarantined (poison shards) say so.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { drainedShardsText } from "./shard_format.ts";
 *
 * assert.equal(drainedShardsText("ns", []), 'No drained shards in namespace "ns".');
 * assert.equal(drainedShardsText("ns", ["3", "7"], undefined, ["7"]), "DRAINED SHARD\n3\n7  quarantined");
 * ```
 */
export function drainedShardsText(
  namespace: string,
  keys: readonly string[],
  paint = PLAIN,
  quarantined: readonly string[] = [],
): string {
  if (keys.length === 0) return `No drained shards in namespace ${JSON.stringify(namespace)}.`;
  const poison = new Set(quarantined);
  const lines = keys.map((key) => poison.has(key) ? `${key}  ${paint.red("quarantined")}` : key);
  return [paint.bold("DRAINED SHARD"), ...lines].join("\n");
}

/**
 * A warm handover in flight, in words.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { handoverText } from "./shard_format.ts";
 * const since = "2026-01-01T00:00:00.000Z";
 * assert.equal(
 *   handoverText({ executorId: "b", since, prepared: false }, Date.parse(since) + 3_000),
 *   "warm handover to b, preparing since 2026-01-01 00:00:00Z (3s ago)",
 * );
 * ```
 */
export function handoverText(
  incoming: NonNullable<ShardModel["incoming"]>,
  now: number,
): string {
  const at = incoming.since === null ? null : Date.parse(incoming.since);
  const since = at === null ? "" : ` since ${shortTime(at)} (${ago(at, now)})`;
  const state = incoming.prepared ? "prepared, switching" : "preparing";
  return `warm handover to ${incoming.executorId}, ${state}${since}`;
}
