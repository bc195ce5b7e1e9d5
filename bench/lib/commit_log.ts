/**
 * Watches a namespace's assignment change log in etcd directly, to learn when
 * each change was committed: its etcd revision and the leader's commit time
 * (`t` in the log entry, the leader's `Date.now()` just before its commit;
 * a large change stored in parts has no `t` in its entry), and when the
 * watch delivered it here.
 *
 * @module
 */
import { Etcd3 } from "etcd3";

/** One committed change. */
export interface Commit {
  /** etcd revision of the log entry. */
  readonly revision: number;
  /** Leader's clock at commit, ms since the epoch (NaN for a change stored in parts). */
  readonly committedAt: number;
  /** This process's clock when the watch delivered the entry, ms since the epoch. */
  readonly seenAt: number;
}

/** A watch on `<storePrefix>/ns/<namespace>/assignment/log/`. */
export class CommitLog implements AsyncDisposable {
  readonly #client: Etcd3;
  readonly #commits: Commit[] = [];
  #waiter: ((commit: Commit) => void) | undefined;
  #seen = 0;
  #lastSeenAt = -Infinity;
  #watcher: Promise<{ cancel(): Promise<void> }>;

  /**
   * Starts watching.
   *
   * @example
   * ```ts ignore
   * import { CommitLog } from "./commit_log.ts";
   *
   * await using log = new CommitLog("127.0.0.1:2379", "t-bench-1/store", "bench");
   * await log.ready;
   * const commit = await log.next(10_000);
   * ```
   */
  constructor(endpoint: string, storePrefix: string, namespace: string) {
    this.#client = new Etcd3({ hosts: [endpoint] });
    this.#watcher = this.#client.watch().prefix(`${storePrefix}/ns/${namespace}/assignment/log/`)
      .create().then((watcher) => {
        watcher.on("put", (kv) => {
          const seenAt = performance.timeOrigin + performance.now();
          const value = JSON.parse(kv.value.toString()) as { t?: number };
          const commit = {
            revision: Number(kv.mod_revision),
            committedAt: Number(value.t),
            seenAt,
          };
          this.#seen++;
          this.#lastSeenAt = seenAt;
          const waiter = this.#waiter;
          this.#waiter = undefined;
          if (waiter) waiter(commit);
          else this.#commits.push(commit);
        });
        return watcher;
      });
  }

  /** Resolves once the watch is established. */
  get ready(): Promise<unknown> {
    return this.#watcher;
  }

  /** Commits seen since the watch started. */
  get seen(): number {
    return this.#seen;
  }

  /** When the last commit was seen (ms since the epoch; -Infinity before any). */
  get lastSeenAt(): number {
    return this.#lastSeenAt;
  }

  /** Forgets commits seen so far. */
  clear(): void {
    this.#commits.length = 0;
  }

  /** The next commit (an earlier unread one first); rejects after `timeoutMs`. */
  next(timeoutMs: number): Promise<Commit> {
    const queued = this.#commits.shift();
    if (queued) return Promise.resolve(queued);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.#waiter = undefined;
        reject(new Error(`No assignment commit within ${timeoutMs} ms`));
      }, timeoutMs);
      this.#waiter = (commit) => {
        clearTimeout(timer);
        resolve(commit);
      };
    });
  }

  /** Stops watching. */
  async [Symbol.asyncDispose](): Promise<void> {
    await (await this.#watcher).cancel().catch(() => {});
    this.#client.close();
  }
}
