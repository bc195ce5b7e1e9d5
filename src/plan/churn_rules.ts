/**
 * The rules that keep planned operations from moving shards twice: a settling
 * window while executors join, a per-shard cooldown after a move, and (in the
 * load balancer) hysteresis against load noise; and the reason each owner
 * change is counted under. Pure questions about a pass's input.
 *
 * @module
 */
import type { PlanInput } from "./plan_input.ts";

/** A namespace's churn rules (see docs/placement.md, "Planned operations"). */
export interface ChurnRules {
  /**
   * While an eligible executor joined less than this long ago, balancing
   * waits (unowned shards are still placed at once). 0: off.
   */
  readonly settleWindowMs: number;
  /**
   * While the namespace has never had an owner (a first deploy), placement
   * waits for the settling window too, but at most this long after the first
   * eligible executor joined. Absent or 0: off (unowned shards are placed at
   * once); the service's default is 30 s (`policy/namespace_policy.ts`).
   */
  readonly coldStartWaitMs?: number;
  /** Balancing starts only for a load gap above this share of the mean executor load. */
  readonly minImprovement: number;
  /** A shard moved less than this long ago is not moved by balancing. 0: off. */
  readonly shardCooldownMs: number;
}

/** Why a shard got a new owner. */
export type MoveReason = "placement" | "balance" | "drain" | "loss";

/** Owner changes of a pass by reason. */
export type MoveCounts = Record<MoveReason, number>;

/** A count of zero for every reason. */
export function noMoves(): MoveCounts {
  return { placement: 0, balance: 0, drain: 0, loss: 0 };
}

/**
 * When the settling window of `eligible` ends, if it has not yet at
 * `input.now`: the last join plus the window.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { settlingUntil } from "./churn_rules.ts";
 *
 * const executors = new Map([["a", { activeSinceMs: 900 }], ["b", { activeSinceMs: 0 }]]);
 * const rules = { settleWindowMs: 300, minImprovement: 0, shardCooldownMs: 0 };
 * const input = { now: 1_000, executors };
 * assert.equal(settlingUntil(input, ["a", "b"], rules), 1_200);
 * assert.equal(settlingUntil({ ...input, now: 1_300 }, ["a", "b"], rules), undefined);
 * ```
 */
export function settlingUntil(
  input: Pick<PlanInput, "now"> & {
    readonly executors: ReadonlyMap<string, { readonly activeSinceMs?: number }>;
  },
  eligible: readonly string[],
  rules: ChurnRules | undefined,
): number | undefined {
  if (rules === undefined || rules.settleWindowMs <= 0) return undefined;
  let last = -Infinity;
  for (const id of eligible) {
    const since = input.executors.get(id)?.activeSinceMs;
    if (since !== undefined && since > last) last = since;
  }
  const until = last + rules.settleWindowMs;
  return until > input.now ? until : undefined;
}

/**
 * Whether the namespace has had an owner: a committed assignment change
 * (`assignmentSeq` above 0, which the store keeps across leader changes and
 * restarts of the service; only a force reset clears it), or an owned shard.
 * A first deploy commits nothing while it waits (`pass_cleanup.ts`), so its
 * first change is its first placement. (A change that only hides a stale
 * executor, made when no eligible executor is left to wait for, counts too:
 * the next deploy is then placed at once, as before the wait existed.)
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { hadOwners } from "./churn_rules.ts";
 *
 * assert.equal(hadOwners({ assignmentSeq: 0, owners: new Map() }), false); // a first deploy
 * assert.equal(hadOwners({ assignmentSeq: 7, owners: new Map() }), true); // its whole fleet lost
 * assert.equal(hadOwners({ owners: new Map([["0", "a"]]) }), true);
 * ```
 */
export function hadOwners(input: Pick<PlanInput, "assignmentSeq" | "owners">): boolean {
  return (input.assignmentSeq ?? 0) > 0 || input.owners.size > 0;
}

/**
 * Until when a cold start holds placement back, if it does at `input.now`.
 * Only when `rules` ask for a cold-start wait, executors are still joining
 * (`settling`: the end of the settling window, from {@linkcode settlingUntil})
 * and the namespace has never had an owner ({@linkcode hadOwners}: a leader
 * change, a restart of the service or the loss of the whole fleet is never
 * held); and never past the first eligible executor's join plus the wait.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { coldStartUntil } from "./churn_rules.ts";
 *
 * const executors = new Map([["a", { activeSinceMs: 0 }], ["b", { activeSinceMs: 900 }]]);
 * const rules = { settleWindowMs: 300, coldStartWaitMs: 1_100, minImprovement: 0, shardCooldownMs: 0 };
 * const input = { now: 1_000, executors, owners: new Map<string, string>(), assignmentSeq: 0 };
 * // b settles until 1,200, but the wait ends first.
 * assert.equal(coldStartUntil(input, ["a", "b"], rules, 1_200), 1_100);
 * assert.equal(coldStartUntil({ ...input, assignmentSeq: 3 }, ["a", "b"], rules, 1_200), undefined); // had owners
 * assert.equal(coldStartUntil(input, ["a", "b"], rules, undefined), undefined); // settled
 * ```
 */
export function coldStartUntil(
  input: Parameters<typeof settlingUntil>[0] & Pick<PlanInput, "assignmentSeq" | "owners">,
  eligible: readonly string[],
  rules: ChurnRules | undefined,
  settling: number | undefined,
): number | undefined {
  const wait = rules?.coldStartWaitMs ?? 0;
  if (wait <= 0 || settling === undefined || hadOwners(input)) return undefined;
  let first = Infinity;
  for (const id of eligible) {
    const since = input.executors.get(id)?.activeSinceMs;
    if (since === undefined) return undefined; // joined before anyone can tell: not a cold start
    if (since < first) first = since;
  }
  const until = Math.min(settling, first + wait);
  return until > input.now ? until : undefined;
}

/** The shards (by index in `shards`) within their cooldown, and when the first one ends. */
export interface Cooldowns {
  /** 1 for a shard balancing must leave where it is; undefined when none is. */
  readonly pinned: Uint8Array | undefined;
  /** Earliest end of a cooldown, if any shard is cooling down. */
  readonly untilMs: number | undefined;
}

/**
 * The shards of `shards` moved within the cooldown before `input.now`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { cooldowns } from "./churn_rules.ts";
 *
 * const rules = { settleWindowMs: 0, minImprovement: 0, shardCooldownMs: 60_000 };
 * const input = { now: 100_000, movedAt: new Map([["x", 50_000], ["y", 10_000]]) };
 * const { pinned, untilMs } = cooldowns(input, ["x", "y"], rules);
 * assert.deepEqual([...pinned!], [1, 0]);
 * assert.equal(untilMs, 110_000);
 * ```
 */
export function cooldowns(
  input: Pick<PlanInput, "now" | "movedAt">,
  shards: readonly string[],
  rules: ChurnRules | undefined,
): Cooldowns {
  const movedAt = input.movedAt;
  if (rules === undefined || rules.shardCooldownMs <= 0 || !movedAt || movedAt.size === 0) {
    return { pinned: undefined, untilMs: undefined };
  }
  const since = input.now - rules.shardCooldownMs;
  let recent = 0;
  for (const at of movedAt.values()) if (at > since) recent++;
  if (recent === 0) return { pinned: undefined, untilMs: undefined };
  const pinned = new Uint8Array(shards.length);
  let untilMs = Infinity;
  for (const [i, shard] of shards.entries()) {
    const at = movedAt.get(shard);
    if (at === undefined || at <= since) continue;
    pinned[i] = 1;
    untilMs = Math.min(untilMs, at + rules.shardCooldownMs);
  }
  return { pinned, untilMs: Number.isFinite(untilMs) ? untilMs : undefined };
}

/**
 * Why a shard owned by `current` (undefined: unowned) gets a new owner:
 * placement when it had none, balance when its owner is still eligible,
 * drain when its owner is alive but draining or drained, loss otherwise.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { moveReason } from "./churn_rules.ts";
 *
 * const executors = new Map([["a", { alive: false }], ["b", { alive: true }]]);
 * const eligible = new Set(["c"]);
 * assert.equal(moveReason({ executors }, eligible, undefined), "placement");
 * assert.equal(moveReason({ executors }, eligible, "a"), "loss");
 * assert.equal(moveReason({ executors }, eligible, "b"), "drain");
 * assert.equal(moveReason({ executors }, eligible, "c"), "balance");
 * ```
 */
export function moveReason(
  input: { readonly executors: ReadonlyMap<string, { readonly alive: boolean }> },
  eligible: { has(id: string): boolean },
  current: string | undefined,
): MoveReason {
  if (current === undefined) return "placement";
  if (eligible.has(current)) return "balance";
  return input.executors.get(current)?.alive ? "drain" : "loss";
}

/** The earlier of two optional instants. */
export function earliest(a: number | undefined, b: number | undefined): number | undefined {
  if (a === undefined) return b;
  if (b === undefined) return a;
  return Math.min(a, b);
}
