/**
 * When a namespace counts as settled for the kit, read from the service's
 * own picture of it, and a wait for a condition on that picture.
 *
 * @module
 */
import type { NamespaceView } from "../../src/state/namespace_view.ts";

/** Shard key → owner executor id. */
export type Assignment = Record<string, string>;

/** The namespace's current assignment, as the service's cache shows it (keys sorted). */
export function assignmentOf(view: NamespaceView): Assignment {
  const owned = [...view.owned()].sort(([a], [b]) => compareKeys(a, b));
  return Object.fromEntries(owned);
}

/** Numeric keys in number order, then the rest in string order. */
function compareKeys(a: string, b: string): number {
  const [x, y] = [Number(a), Number(b)];
  if (Number.isInteger(x) && Number.isInteger(y)) return x - y;
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * Why the namespace is not settled, or undefined when it is: it has a
 * leader, every shard that should have an owner has one, every owner is
 * alive, ACTIVE and not drained, and no shard is being handed over.
 */
export function unsettledReason(
  view: NamespaceView,
  nowMonotonic: number,
  shardNum: number | undefined,
): string | undefined {
  if (view.leader === undefined) return "no leader yet";
  if (shardNum !== undefined) {
    for (let s = 0; s < shardNum; s++) {
      const key = String(s);
      if (view.ownerOf(key) === undefined && !view.isDrained(key)) {
        return `shard ${key} has no owner`;
      }
    }
  }
  if (view.requestCount > 0) return `${view.requestCount} requested shards have no owner yet`;
  for (const [shard, owner] of view.owned()) {
    const executor = view.executor(owner);
    if (executor === undefined) return `shard ${shard} is owned by unknown executor ${owner}`;
    if (!view.isAlive(executor, nowMonotonic)) return `shard ${shard}'s owner ${owner} is stale`;
    if (executor.status !== "ACTIVE") {
      return `shard ${shard}'s owner ${owner} is ${executor.status}`;
    }
    if (view.isExecutorDrained(executor)) return `shard ${shard}'s owner ${owner} is drained`;
    if (view.releasedAt(shard) !== undefined) return `shard ${shard} is being handed over`;
  }
  return undefined;
}

/**
 * Resolves once `check` returns a value other than `undefined` (checked
 * every few ms of real time), or rejects after `timeoutMs` with `what` and
 * the last `explain()`.
 */
export async function waitUntil<T>(
  check: () => T | undefined,
  options: {
    readonly timeoutMs: number;
    readonly what: string;
    readonly explain?: () => string | undefined;
  },
): Promise<T> {
  const deadline = performance.now() + options.timeoutMs;
  for (;;) {
    const value = check();
    if (value !== undefined) return value;
    if (performance.now() >= deadline) {
      const why = options.explain?.();
      throw new Error(
        `Timed out after ${options.timeoutMs} ms waiting until ${options.what}${
          why ? `: ${why}` : ""
        }`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}
