/**
 * Operator drains of executors: by id, or by a metadata selector that also
 * catches executors registering later. A drained executor loses its shards and
 * gets no new ones until every drain that matches it is removed.
 *
 * @module
 */
import { InvalidArgumentError } from "./errors.ts";

/** What an executor drain targets: one id, or every executor whose metadata matches. */
export type DrainTarget =
  | { readonly executorId: string; readonly selector?: undefined }
  | { readonly selector: Readonly<Record<string, string>>; readonly executorId?: undefined };

/** A stored executor drain. */
export type ExecutorDrain = DrainTarget & {
  /** `id:<executor>` or `selector:<k>=<v>,...` with pairs sorted by key. */
  readonly id: string;
  /** Free text from the operator. */
  readonly reason: string;
  /** When it was made (ms since epoch). */
  readonly createdAtMs: number;
};

/** Most pairs in one selector. */
export const MAX_SELECTOR_PAIRS = 16;

/**
 * The stable id of a drain target.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { drainIdOf } from "./executor_drain.ts";
 *
 * assert.equal(drainIdOf({ selector: { zone: "b", hostname: "w7" } }), "selector:hostname=w7,zone=b");
 * assert.equal(drainIdOf({ executorId: "e1" }), "id:e1");
 * ```
 */
export function drainIdOf(target: DrainTarget): string {
  if (target.executorId !== undefined) return `id:${target.executorId}`;
  const pairs = Object.entries(target.selector).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `selector:${pairs.map(([k, v]) => `${k}=${v}`).join(",")}`;
}

/** True when `drain` applies to the executor with this id and metadata. */
export function drainMatches(
  drain: DrainTarget,
  executorId: string,
  metadata: Readonly<Record<string, string>>,
): boolean {
  if (drain.executorId !== undefined) return drain.executorId === executorId;
  for (const [key, value] of Object.entries(drain.selector)) {
    if (metadata[key] !== value) return false;
  }
  return true;
}

/**
 * Checks a target from the wire: exactly one of a non-empty executor id and a
 * non-empty selector, with sane sizes. Throws `InvalidArgumentError`.
 */
export function validateDrainTarget(
  executorId: string,
  selector: Readonly<Record<string, string>>,
): DrainTarget {
  const pairs = Object.entries(selector);
  if (executorId !== "" && pairs.length > 0) {
    throw new InvalidArgumentError("executor_id", "give an executor id or a selector, not both");
  }
  if (executorId !== "") {
    if (executorId.length > 256) throw new InvalidArgumentError("executor_id", "is over 256 chars");
    return { executorId };
  }
  if (pairs.length === 0) {
    throw new InvalidArgumentError("executor_id", "give an executor id or a selector");
  }
  if (pairs.length > MAX_SELECTOR_PAIRS) {
    throw new InvalidArgumentError("selector", `has over ${MAX_SELECTOR_PAIRS} pairs`);
  }
  for (const [key, value] of pairs) {
    if (key === "" || key.length > 256 || /[=,]/.test(key)) {
      throw new InvalidArgumentError(
        "selector",
        `key ${JSON.stringify(key)} must be 1-256 chars without "=" or ","`,
      );
    }
    if (value.length > 1024) {
      throw new InvalidArgumentError(
        "selector",
        `value of ${JSON.stringify(key)} is over 1024 chars`,
      );
    }
  }
  return { selector: Object.fromEntries(pairs) };
}
