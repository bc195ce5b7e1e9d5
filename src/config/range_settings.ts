/**
 * The settings of a key-range namespace (`type: range`, the `range:` block;
 * docs/placement.md, "Key ranges"): how the hash line is cut into slices and
 * when the range planner splits, merges, isolates hot keys and moves slices.
 * Loads are shares of the mean executor load, so one setting fits any scale.
 *
 * @module
 */
import { z } from "zod";
import { integer, section } from "./_fields.ts";
import { describeValue } from "./_issue_message.ts";
import { MAX_REPLICAS } from "./namespace_checks.ts";
import type { SectionSchema } from "./section_schema.ts";

/** Slices per executor the planner aims for and keeps between (when it can). */
export interface SlicesPerExecutor {
  /** Aimed for: below it cold neighbours are not merged. */
  readonly target: number;
  /** Fewest: below it the heaviest slices are split even when not hot. */
  readonly min: number;
  /** Most: above it the coldest neighbours are merged, and no split is made. */
  readonly max: number;
}

/** A key-range namespace's settings, every default applied. */
export interface RangeSettings {
  /** Equal slices the line is cut into when the namespace is created. */
  readonly initialSlices: number;
  /** Slices per executor: target and bounds. */
  readonly slicesPerExecutor: SlicesPerExecutor;
  /** A slice heavier than this share of the mean executor load is split at its weighted middle. */
  readonly splitThreshold: number;
  /** Two neighbours lighter together than this share are merged. */
  readonly mergeThreshold: number;
  /** A key heavier than this share gets a single-key slice of its own. */
  readonly hotKeyThreshold: number;
  /** An isolated hot key gets an owner per this share of its load (available namespaces). */
  readonly hotKeyReplicaShare: number;
  /** Most owners of an isolated hot key. */
  readonly maxHotKeyReplicas: number;
  /** Balancing stops once the hottest executor is within this share above the mean. */
  readonly imbalanceTolerance: number;
  /** Most slice-owner changes per pass (splits and merges that keep owners are free). */
  readonly churnBudget: number;
  /** Owners of every slice (above 1 only in available namespaces). */
  readonly replicas: number;
  /** Top keys an executor reports per slice (1 to 32, the most a heartbeat carries). */
  readonly sketchSize: number;
}

/** The defaults: Dicer's 32 slices per pod within a 10% imbalance tolerance. */
export const RANGE_DEFAULTS: RangeSettings = {
  initialSlices: 256,
  slicesPerExecutor: { target: 32, min: 8, max: 64 },
  splitThreshold: 0.125,
  mergeThreshold: 0.015,
  hotKeyThreshold: 0.1,
  hotKeyReplicaShare: 0.5,
  maxHotKeyReplicas: 32,
  imbalanceTolerance: 0.1,
  churnBudget: 32,
  replicas: 1,
  sketchSize: 16,
};

function share(max: number) {
  const error = (issue: { input?: unknown }) =>
    `expected a share of the mean executor load above 0 and at most ${max}, got ${
      describeValue(issue.input)
    }`;
  return z.number({ error }).positive({ error }).max(max, { error });
}

/**
 * `range:` of a `type: range` namespace, read into {@linkcode RangeSettings}
 * with defaults; refuses, naming the field, bounds out of order and
 * thresholds that would make the planner undo its own work.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { rangeSettingsSchema } from "./range_settings.ts";
 *
 * assert.equal(rangeSettingsSchema.parse({ churnBudget: 8 }).churnBudget, 8);
 * const bad = rangeSettingsSchema.safeParse({ mergeThreshold: 0.1 });
 * assert.match(bad.error?.issues[0]?.message ?? "", /at most half the splitThreshold/);
 * ```
 */
export const rangeSettingsSchema: SectionSchema<RangeSettings> = section({
  initialSlices: integer(1, 1_000_000).optional(),
  slicesPerExecutor: section({
    target: integer(1, 10_000).optional(),
    min: integer(1, 10_000).optional(),
    max: integer(1, 10_000).optional(),
  }).optional(),
  splitThreshold: share(100).optional(),
  mergeThreshold: share(100).optional(),
  hotKeyThreshold: share(100).optional(),
  hotKeyReplicaShare: share(100).optional(),
  maxHotKeyReplicas: integer(1, 1_000).optional(),
  imbalanceTolerance: z.number().min(0).max(10).optional(),
  churnBudget: integer(0, 1_000_000).optional(),
  replicas: integer(1, MAX_REPLICAS).optional(),
  sketchSize: integer(1, 32).optional(), // the wire carries at most 32 top keys a slice
}).transform((r, ctx): RangeSettings => {
  const d = RANGE_DEFAULTS;
  const settings: RangeSettings = {
    initialSlices: r.initialSlices ?? d.initialSlices,
    slicesPerExecutor: {
      target: r.slicesPerExecutor?.target ?? d.slicesPerExecutor.target,
      min: r.slicesPerExecutor?.min ?? d.slicesPerExecutor.min,
      max: r.slicesPerExecutor?.max ?? d.slicesPerExecutor.max,
    },
    splitThreshold: r.splitThreshold ?? d.splitThreshold,
    mergeThreshold: r.mergeThreshold ?? d.mergeThreshold,
    hotKeyThreshold: r.hotKeyThreshold ?? d.hotKeyThreshold,
    hotKeyReplicaShare: r.hotKeyReplicaShare ?? d.hotKeyReplicaShare,
    maxHotKeyReplicas: r.maxHotKeyReplicas ?? d.maxHotKeyReplicas,
    imbalanceTolerance: r.imbalanceTolerance ?? d.imbalanceTolerance,
    churnBudget: r.churnBudget ?? d.churnBudget,
    replicas: r.replicas ?? d.replicas,
    sketchSize: r.sketchSize ?? d.sketchSize,
  };
  const issue = (path: (string | number)[], input: unknown, message: string) =>
    ctx.addIssue({ code: "custom", path, input, message });
  const { target, min, max } = settings.slicesPerExecutor;
  if (!(min <= target && target <= max)) {
    issue(
      ["slicesPerExecutor"],
      r.slicesPerExecutor,
      `expected min ≤ target ≤ max, got min ${min}, target ${target}, max ${max}`,
    );
  }
  if (settings.mergeThreshold > settings.splitThreshold / 2) {
    issue(
      ["mergeThreshold"],
      settings.mergeThreshold,
      `must be at most half the splitThreshold (${settings.splitThreshold}), or a merged ` +
        `pair could be split again at once; got ${settings.mergeThreshold}`,
    );
  }
  if (settings.hotKeyThreshold > settings.splitThreshold) {
    issue(
      ["hotKeyThreshold"],
      settings.hotKeyThreshold,
      `must be at most the splitThreshold (${settings.splitThreshold}): a key that hot makes ` +
        `its slice too hot to keep and can only be isolated; got ${settings.hotKeyThreshold}`,
    );
  }
  if (settings.maxHotKeyReplicas < settings.replicas) {
    issue(
      ["maxHotKeyReplicas"],
      settings.maxHotKeyReplicas,
      `must be at least replicas (${settings.replicas}), got ${settings.maxHotKeyReplicas}`,
    );
  }
  return settings;
});
