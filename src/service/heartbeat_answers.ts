/**
 * Heartbeat answers, built once per change of an executor's shards. An
 * executor heartbeats every second or so and its shards rarely change, so
 * sorting its shard keys and collecting their fencing tokens on every
 * heartbeat (1,000 shards each at 1,000,000 shards over 1,000 executors) is
 * wasted work and garbage.
 *
 * @module
 */
import { compareShardKeys } from "../routing/mod.ts";
import type { NamespaceState } from "../state/namespace_state.ts";

/** What an executor is told in answer to a heartbeat. */
export interface HeartbeatAnswer {
  /** Shards the executor owns now, sorted, each with its fencing token. */
  readonly shards: readonly { readonly shardKey: string; readonly fencingToken: number }[];
}

/** Cached answers of one namespace, keyed by executor. */
export class HeartbeatAnswers {
  #cache = new Map<string, { stamp: number; answer: HeartbeatAnswer }>();

  /** The answer for `executorId` from `state`, rebuilt only when its shards changed. */
  answer(state: NamespaceState, executorId: string): HeartbeatAnswer {
    const stamp = state.shardSetStamp(executorId);
    const cached = this.#cache.get(executorId);
    if (cached?.stamp === stamp) return cached.answer;
    const keys = [...state.shardsOf(executorId)].sort(compareShardKeys);
    const answer: HeartbeatAnswer = {
      shards: keys.map((shardKey) => ({
        shardKey,
        fencingToken: state.assignedRevisions.get(shardKey) ?? 0,
      })),
    };
    // Executors come and go: start over rather than keep the departed forever.
    if (this.#cache.size > 2 * state.executors.size + 64) this.#cache.clear();
    this.#cache.set(executorId, { stamp, answer });
    return answer;
  }
}
