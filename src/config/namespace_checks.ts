/**
 * The rules that tie a namespace entry's fields together: what `mode: cells`
 * and `replicas` above 1 allow and require. Each issue names the field.
 *
 * @module
 */
import type { z } from "zod";

/** Longest tenant or cell id in `pins` (the limit of a shard key and an executor id). */
export const MAX_KEY = 256;

/** Most owners per shard a namespace may ask for. */
export const MAX_REPLICAS = 64;

/** Most (maxOverlap + 1)-combinations of one owner set the shuffle planner tracks. */
const MAX_TRACKED_COMBINATIONS = 4096;

function binomial(n: number, k: number): number {
  let c = 1;
  for (let i = 1; i <= k; i++) c = (c * (n - k + i)) / i;
  return Math.round(c);
}

/** The fields {@linkcode checkReplicas} reads. */
interface ReplicaFields {
  readonly mode?: "cells" | undefined;
  readonly ownership?: string | undefined;
  readonly loadBalancer?: string | undefined;
  readonly replicas?: number | undefined;
  readonly placement?: "balanced" | "shuffle" | undefined;
  readonly maxOverlap?: number | undefined;
  readonly zoneKey?: string | undefined;
}

/**
 * `replicas` above 1 gives each shard an owner set placed by the replica or
 * shuffle planner (never by a load balancer); `placement: shuffle` needs sets
 * of two or more and a `maxOverlap` below `replicas`. Not combinable (yet)
 * with exclusive ownership or cells.
 */
export function checkReplicas(namespace: ReplicaFields, ctx: z.RefinementCtx): void {
  const issue = (path: string, input: unknown, message: string) =>
    ctx.addIssue({ code: "custom", path: [path], input, message });
  const replicas = namespace.replicas ?? 1;
  if (namespace.mode === "cells") {
    for (const key of ["replicas", "placement", "maxOverlap", "zoneKey"] as const) {
      if (namespace[key] !== undefined) {
        issue(key, namespace[key], "must be absent with mode: cells (a tenant has one cell)");
      }
    }
    return;
  }
  if (replicas > 1 && namespace.ownership === "exclusive") {
    issue(
      "replicas",
      replicas,
      "above 1 is not supported with ownership: exclusive yet (handovers move one owner); " +
        "use the default ownership, available, or replicas: 1",
    );
  }
  if (replicas > 1 && namespace.loadBalancer !== undefined) {
    issue(
      "loadBalancer",
      namespace.loadBalancer,
      `must be absent with replicas: ${replicas}; owner sets are placed by ` +
        "placement (balanced or shuffle), not by a load balancer",
    );
  }
  if (replicas === 1 && namespace.zoneKey !== undefined) {
    issue("zoneKey", namespace.zoneKey, "applies only with replicas above 1");
  }
  if (namespace.placement === "shuffle") {
    if (replicas < 2) {
      issue(
        "placement",
        namespace.placement,
        `shuffle needs replicas of 2 or more, got ${replicas}`,
      );
    }
    if (namespace.maxOverlap === undefined) {
      issue(
        "maxOverlap",
        undefined,
        "required with placement: shuffle; expected an integer from 0 to replicas - 1",
      );
    } else if (replicas >= 2 && namespace.maxOverlap >= replicas) {
      issue(
        "maxOverlap",
        namespace.maxOverlap,
        `must be less than replicas (${replicas}), got ${namespace.maxOverlap}`,
      );
    } else if (binomial(replicas, namespace.maxOverlap + 1) > MAX_TRACKED_COMBINATIONS) {
      issue(
        "maxOverlap",
        namespace.maxOverlap,
        `with replicas ${replicas} gives more than ${MAX_TRACKED_COMBINATIONS} executor ` +
          `combinations per owner set to track; choose fewer replicas or a maxOverlap ` +
          `nearer 0 or replicas - 1`,
      );
    }
  } else if (namespace.maxOverlap !== undefined) {
    issue("maxOverlap", namespace.maxOverlap, "applies only with placement: shuffle");
  }
}

/** The churn rules, which mean nothing in a namespace that never balances. */
const CHURN_KEYS = ["settleWindow", "coldStartWait", "minImprovement", "shardCooldown"] as const;

/** The fields {@linkcode checkCells} reads. */
interface CellsFields {
  readonly type: string;
  readonly mode?: "cells" | undefined;
  readonly pins?: Record<string, string> | undefined;
  readonly loadBalancer?: string | undefined;
  readonly maxMovesPerPass?: number | undefined;
  readonly settleWindow?: number | undefined;
  readonly coldStartWait?: number | undefined;
  readonly minImprovement?: number | undefined;
  readonly shardCooldown?: number | undefined;
  readonly ownership?: string | undefined;
}

/**
 * `mode: cells` is an ephemeral namespace whose placement is sticky: no load
 * balancer runs, so choosing one or a move budget is a mistake; `pins` only
 * mean something in that mode.
 */
export function checkCells(namespace: CellsFields, ctx: z.RefinementCtx): void {
  const issue = (path: string, input: unknown, message: string) =>
    ctx.addIssue({ code: "custom", path: [path], input, message });
  if (namespace.mode !== "cells") {
    if (namespace.pins !== undefined) {
      issue("pins", namespace.pins, "only allowed with mode: cells");
    }
    return;
  }
  if (namespace.type !== "ephemeral") {
    issue(
      "mode",
      namespace.mode,
      "cells requires type: ephemeral (tenants are created on first use)",
    );
  }
  if (namespace.loadBalancer !== undefined) {
    issue(
      "loadBalancer",
      namespace.loadBalancer,
      "must be absent with mode: cells, which never balances",
    );
  }
  if (namespace.maxMovesPerPass !== undefined) {
    issue(
      "maxMovesPerPass",
      namespace.maxMovesPerPass,
      "must be absent with mode: cells, which never balances (move tenants with smctl shard move)",
    );
  }
  for (const key of CHURN_KEYS) {
    if (namespace[key] !== undefined) {
      issue(key, namespace[key], "must be absent with mode: cells, which never balances");
    }
  }
  if (namespace.ownership === "exclusive") {
    issue(
      "ownership",
      namespace.ownership,
      "exclusive is not supported with mode: cells yet (tenant moves do not hand over); " +
        "use the default, available",
    );
  }
}
