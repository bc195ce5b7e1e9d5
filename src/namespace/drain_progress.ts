/**
 * When a drain of some shards has been acted on: none of them has an owner,
 * and every live executor heartbeated since and reports running none of them
 * (so each was told by an answer and acted on it).
 *
 * "Heartbeated since" is judged by store revisions, never by timestamps: a
 * heartbeat record carries the wall clock of whichever instance wrote it, and
 * with that instance's clock 30 s behind (or ahead) of this one a wait would
 * time out (or end too early). The first record committed after the shards
 * went unowned may still be a heartbeat received (and answered, from the old
 * assignment) before: writes are batched. So each live executor must have a
 * second record after that one: it sent that heartbeat after it had the
 * answer to the first, and its reports say what it runs since.
 *
 * @module
 */
import type { NamespaceView } from "../state/namespace_view.ts";

/** The progress of one drain, fed the namespace's view as it changes. */
export class DrainProgress {
  readonly #keys: readonly string[];
  #unownedAt: number | undefined;
  readonly #firstAfter = new Map<string, number>();

  /** For a drain of `keys`. */
  constructor(keys: readonly string[]) {
    this.#keys = keys;
  }

  /** The keys not yet let go of, as `view` shows at `now` (monotonic ms); empty when done. */
  left(view: NamespaceView, now: number): string[] {
    const keys = this.#keys;
    const owned = keys.filter((key) => view.ownersOf(key).length > 0);
    if (owned.length > 0) {
      this.#unownedAt = undefined;
      this.#firstAfter.clear();
      return owned;
    }
    const unownedAt = this.#unownedAt ??= view.revision;
    const reported = new Set<string>();
    let waiting = false;
    for (const executor of view.executors()) {
      if (!view.isAlive(executor, now)) continue;
      const id = executor.executorId;
      if (executor.heartbeatRevision > unownedAt && !this.#firstAfter.has(id)) {
        this.#firstAfter.set(id, executor.heartbeatRevision);
      }
      const first = this.#firstAfter.get(id);
      if (first === undefined || executor.heartbeatRevision <= first) waiting = true;
      for (const key of executor.reports.keys()) reported.add(key);
    }
    return waiting ? [...keys] : keys.filter((key) => reported.has(key));
  }
}
