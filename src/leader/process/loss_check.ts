/**
 * Before a pass judges executors lost: is the followed picture behind the
 * store? The picture comes from a watch, which lives on one etcd member. A
 * member cut off from its peers or frozen keeps the watch open and delivers
 * nothing until etcd or the client ends it, seconds later, while reads and
 * the store pulse go through the other members; the picture then shows every
 * executor as having stopped heartbeating, and a pass would move every shard
 * (the chaos suite's needless-move check found it, `etcd-member-isolated`).
 *
 * So an executor the picture shows as lost is first looked up in the store
 * itself: when the store holds a newer heartbeat record than the picture, the
 * picture is behind, and the pass judges nothing until it has caught up.
 * Each executor is looked up once per record (its heartbeat revision); a lost
 * executor costs one small read, a steady namespace none.
 *
 * @module
 */
import type { ExecutorView, NamespaceView } from "../../state/namespace_view.ts";
import { MAX_UNCHANGED_EXECUTORS, type Store } from "../../store/store.ts";

/** An executor whose stored heartbeat is newer than the picture's. */
export interface FeedBehind {
  /** The executor. */
  readonly executorId: string;
  /** Its heartbeat record's revision in the picture. */
  readonly seen: number;
  /** Its heartbeat record's revision in the store. */
  readonly stored: number;
  /** Whether the picture was current at the previous check (the first pass of an episode). */
  readonly first: boolean;
}

/**
 * The executors that `view` shows as lost at `now`, the most recently seen
 * first, each at the heartbeat revision the picture has.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import type { ExecutorView, NamespaceView } from "../../state/namespace_view.ts";
 * import { lostExecutors } from "./loss_check.ts";
 *
 * const e = (executorId: string, seenAtMs: number) =>
 *   ({ executorId, heartbeatRevision: seenAtMs, seenAtMs }) as ExecutorView;
 * const view = {
 *   executors: () => [e("a", 1), e("b", 3), e("live", 9)].values(),
 *   isAlive: (x: ExecutorView) => x.executorId === "live",
 * } as Pick<NamespaceView, "executors" | "isAlive">;
 * assert.deepEqual(lostExecutors(view, 10).map((x) => x.executorId), ["b", "a"]);
 * ```
 */
export function lostExecutors(
  view: Pick<NamespaceView, "executors" | "isAlive">,
  now: number,
): ExecutorView[] {
  const lost: ExecutorView[] = [];
  // Copies: the picture's executor objects change in place as heartbeats are applied, and the
  // commit must compare the records as they were when the pass judged them lost (a live object
  // read at commit time carries the newer revision, and the compare let a move off an executor
  // heard from meanwhile through: a needless move in CI's chaos run).
  for (const e of view.executors()) if (!view.isAlive(e, now)) lost.push({ ...e });
  return lost.sort((a, b) => b.seenAtMs - a.seenAtMs);
}

/**
 * Confirms losses against the store; one per leader term.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import type { ExecutorView } from "../../state/namespace_view.ts";
 * import { LossCheck } from "./loss_check.ts";
 *
 * const lost = [{ executorId: "e1", heartbeatRevision: 7, seenAtMs: 0 } as ExecutorView];
 * let stored = 9; // the store has a newer heartbeat than the picture
 * const store = { heartbeatRevisions: () => Promise.resolve(new Map([["e1", stored]])) };
 * const check = new LossCheck(store, "ns");
 * assert.deepEqual(await check.behind(lost), { executorId: "e1", seen: 7, stored: 9, first: true });
 * stored = 7; // it really stopped
 * assert.equal(await check.behind(lost), undefined);
 * ```
 */
export class LossCheck {
  readonly #store: Pick<Store, "heartbeatRevisions">;
  readonly #namespace: string;
  /** Executor → the heartbeat revision confirmed as the store's latest. */
  readonly #confirmed = new Map<string, number>();
  #behind = false;

  /**
   * @param store where to read the records
   * @param namespace whose executors
   */
  constructor(store: Pick<Store, "heartbeatRevisions">, namespace: string) {
    this.#store = store;
    this.#namespace = namespace;
  }

  /**
   * The first of `lost` (the executors the picture shows as lost, as
   * {@linkcode lostExecutors} lists them) of which the store holds a newer
   * heartbeat; undefined when the picture is current for every one (each is
   * then confirmed at its record). Reads at most
   * {@linkcode MAX_UNCHANGED_EXECUTORS} not yet confirmed, the most recently
   * seen first: if the picture is behind, they show it. Confirmations of
   * executors no longer lost are forgotten.
   */
  async behind(lost: readonly ExecutorView[]): Promise<FeedBehind | undefined> {
    const still = new Set(lost.map((e) => e.executorId));
    for (const id of this.#confirmed.keys()) if (!still.has(id)) this.#confirmed.delete(id);
    const asked = lost
      .filter((e) => this.#confirmed.get(e.executorId) !== e.heartbeatRevision)
      .slice(0, MAX_UNCHANGED_EXECUTORS);
    if (asked.length === 0) {
      this.#behind = false;
      return undefined;
    }
    const stored = await this.#store.heartbeatRevisions(
      this.#namespace,
      asked.map((e) => e.executorId),
    );
    let behind: FeedBehind | undefined;
    for (const e of asked) {
      const revision = stored.get(e.executorId) ?? 0;
      if (revision > e.heartbeatRevision) {
        behind ??= {
          executorId: e.executorId,
          seen: e.heartbeatRevision,
          stored: revision,
          first: !this.#behind,
        };
      } else this.#confirmed.set(e.executorId, e.heartbeatRevision);
    }
    this.#behind = behind !== undefined;
    return behind;
  }
}
