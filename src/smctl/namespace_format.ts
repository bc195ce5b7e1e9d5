/**
 * Human output of the `namespace` commands.
 *
 * @module
 */
import { palette as makePalette } from "./colour.ts";
import { drainTable } from "./drain_format.ts";
import { executorTable } from "./executor_format.ts";
import { leaderLine } from "./leader_format.ts";
import type { DrainModel, ExecutorModel, LeaderModel, NamespaceModel } from "./model.ts";
import { renderKeyValues, renderTable } from "./table.ts";
import { brakeLine, type BrakeModel } from "./brake_format.ts";

const PLAIN = makePalette(false);

/**
 * The namespaces table: name, type, mode, shard count (`-` for ephemeral) and,
 * from servers that say it, where each definition comes from (`file` or `api`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { namespaceTable } from "./namespace_format.ts";
 *
 * const text = namespaceTable([{ name: "ns", type: "fixed", mode: "onboarded", shardNum: 8 }]);
 * assert.equal(text, "NAMESPACE  TYPE   MODE       SHARDS\nns         fixed  onboarded       8");
 * ```
 */
export function namespaceTable(
  namespaces: readonly NamespaceModel[],
  paint = PLAIN,
  leaders?: ReadonlyMap<string, string>,
): string {
  if (namespaces.length === 0) return "No namespaces.";
  const sources = namespaces.some((n) => n.source !== undefined);
  return renderTable(
    [
      { header: "NAMESPACE" },
      { header: "TYPE" },
      { header: "MODE" },
      { header: "SHARDS", align: "right" },
      ...(sources ? [{ header: "SOURCE" }] : []),
      ...(leaders ? [{ header: "LEADER" }] : []),
    ],
    namespaces.map((n) => [
      n.name,
      n.type,
      n.mode,
      n.type === "fixed" ? String(n.shardNum) : "-",
      ...(sources ? [n.source ?? "-"] : []),
      ...(leaders ? [leaders.get(n.name) ?? "-"] : []),
    ]),
    { palette: paint },
  );
}

/** Counts over a namespace's executors, for `namespace describe`. */
export interface ExecutorSummary {
  /** Known executors. */
  readonly total: number;
  /** Executors with recent heartbeats. */
  readonly alive: number;
  /** Executors reporting ACTIVE. */
  readonly active: number;
  /** Executors an operator drain applies to. */
  readonly drained: number;
  /** Shards assigned over all executors. */
  readonly assignedShards: number;
  /** Exclusive namespaces: shards owned by live executors that do not run them. */
  readonly notRunningShards: number;
}

/**
 * Counts executors by state and sums their shards.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { summarizeExecutors } from "./namespace_format.ts";
 *
 * assert.equal(summarizeExecutors([]).total, 0);
 * ```
 */
export function summarizeExecutors(executors: readonly ExecutorModel[]): ExecutorSummary {
  return {
    total: executors.length,
    alive: executors.filter((e) => e.alive).length,
    active: executors.filter((e) => e.status === "ACTIVE").length,
    drained: executors.filter((e) => e.drained).length,
    assignedShards: executors.reduce((sum, e) => sum + e.shardCount, 0),
    notRunningShards: executors.reduce((sum, e) => sum + (e.notRunningShards ?? 0), 0),
  };
}

/** Everything `namespace describe` shows. */
export interface NamespaceDescription {
  /** Configuration. */
  readonly config: NamespaceModel;
  /** Its leader, if the service named one. */
  readonly leader: LeaderModel | undefined;
  /** Its executors. */
  readonly executors: readonly ExecutorModel[];
  /** Its executor drains. */
  readonly drains: readonly DrainModel[];
  /** Its drained shards. */
  readonly drainedShards: readonly string[];
  /** Owner changes by reason, as the answering instance applied them since it started. */
  readonly shardMoves?: Readonly<Record<"placement" | "balance" | "drain" | "loss", number>>;
  /** The mass-loss brake (absent: the service does not tell). */
  readonly brake?: BrakeModel;
}

/**
 * `namespace describe`: configuration and leader, an executors summary and
 * table, executor drains and drained shards. `now` is the local clock.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import type { ExecutorModel } from "./model.ts";
 * import { namespaceDescription } from "./namespace_format.ts";
 *
 * const a: ExecutorModel = {
 *   id: "a", status: "ACTIVE", alive: true, heartbeatAgeMs: 400, lastHeartbeat: null,
 *   shardCount: 2, totalLoad: 1.5, drained: false, drainedBy: [], metadata: {},
 * };
 * const text = namespaceDescription({
 *   config: { name: "ns", type: "fixed", mode: "onboarded", shardNum: 8 },
 *   leader: undefined,
 *   executors: [a],
 *   drains: [],
 *   drainedShards: ["3"],
 * }, 61_000);
 * assert.ok(text.startsWith("Namespace  ns\nType       fixed\n"));
 * assert.ok(text.includes("Executors: 1 executors (1 alive, 1 active, 0 drained), 2 shards assigned"));
 * assert.ok(text.endsWith("Drained shards: 3"));
 * ```
 */
export function namespaceDescription(d: NamespaceDescription, now: number, paint = PLAIN): string {
  const s = summarizeExecutors(d.executors);
  const config = renderKeyValues([
    ["Namespace", paint.cyan(d.config.name)],
    ["Type", d.config.type],
    ["Mode", d.config.mode],
    ["Shards", d.config.type === "fixed" ? String(d.config.shardNum) : "created on demand"],
    ...(d.config.source === undefined ? [] : [["Source", d.config.source] as [string, string]]),
    ["Leader", leaderLine(d.leader, now, paint)],
    ...(d.brake ? [["Mass-loss brake", brakeLine(d.brake, now, paint)] as [string, string]] : []),
  ], { palette: paint });
  const summary = `${s.total} executors (${s.alive} alive, ${s.active} active, ${s.drained} ` +
    `drained), ${s.assignedShards} shards assigned` +
    (s.notRunningShards > 0 ? `, ${paint.red(`${s.notRunningShards} NOT RUNNING`)}` : "");
  const drained = d.drainedShards.length === 0 ? "none" : d.drainedShards.join(", ");
  return [
    config,
    "",
    `${paint.bold("Executors:")} ${summary}`,
    executorTable(d.executors, paint),
    "",
    `${paint.bold("Executor drains:")} ${d.drains.length}`,
    ...(d.drains.length === 0 ? [] : [drainTable(d.drains, now, paint)]),
    "",
    `${paint.bold("Drained shards:")} ${drained}`,
    ...(d.shardMoves
      ? [
        "",
        `${
          paint.bold("Shard moves:")
        } placement ${d.shardMoves.placement}, balance ${d.shardMoves.balance}, drain ${d.shardMoves.drain}, loss ${d.shardMoves.loss} (since the answering instance started)`,
      ]
      : []),
  ].join("\n");
}
