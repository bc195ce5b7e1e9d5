/**
 * The `LeaderStore` port for the embedded store: elections inside the one
 * process that holds the data directory. Terms come from the store's revision
 * counter, so they keep growing across restarts (a claim written with a term
 * is journaled at a later revision).
 *
 * @module
 */
import type { LeaderInfo, Leadership, LeaderStore } from "../leader_store.ts";

interface Candidate {
  readonly instanceId: string;
  readonly win: (leadership: Leadership) => void;
}

interface Election {
  leader: { readonly info: LeaderInfo; readonly controller: AbortController } | undefined;
  readonly queue: Candidate[];
}

/** In-process elections; `nextTerm` gives each new leader a larger term. */
export class EmbeddedLeaderStore implements LeaderStore {
  #elections = new Map<string, Election>();
  #nextTerm: () => number;
  #closed = new AbortController();

  /** Takes terms from `nextTerm` (the embedded store's `nextRevision`). */
  constructor(nextTerm: () => number) {
    this.#nextTerm = nextTerm;
  }

  /** Waits until this candidate leads `namespace`; candidates are served in order. */
  campaign(
    namespace: string,
    instanceId: string,
    options: { readonly ttlMs: number; readonly signal: AbortSignal },
  ): Promise<Leadership> {
    const { signal } = options;
    if (signal.aborted) return Promise.reject(signal.reason);
    const election = this.#election(namespace);
    return new Promise<Leadership>((resolve, reject) => {
      const candidate: Candidate = {
        instanceId,
        win: (leadership) => {
          signal.removeEventListener("abort", withdraw);
          resolve(leadership);
        },
      };
      const withdraw = () => {
        const at = election.queue.indexOf(candidate);
        if (at >= 0) election.queue.splice(at, 1);
        reject(signal.reason);
      };
      signal.addEventListener("abort", withdraw, { once: true });
      election.queue.push(candidate);
      this.#promote(namespace, election);
    });
  }

  /** The current leader of `namespace`, if any. */
  leader(namespace: string): Promise<LeaderInfo | undefined> {
    return Promise.resolve(this.#elections.get(namespace)?.leader?.info);
  }

  /** Ends every leadership and refuses new campaigns. */
  close(): Promise<void> {
    this.#closed.abort(new Error("the embedded leader store is closed"));
    for (const election of this.#elections.values()) {
      election.leader?.controller.abort(new Error("the embedded leader store is closed"));
      election.leader = undefined;
    }
    return Promise.resolve();
  }

  #election(namespace: string): Election {
    let election = this.#elections.get(namespace);
    if (!election) this.#elections.set(namespace, election = { leader: undefined, queue: [] });
    return election;
  }

  #promote(namespace: string, election: Election): void {
    if (election.leader || this.#closed.signal.aborted) return;
    const next = election.queue.shift();
    if (!next) return;
    const controller = new AbortController();
    const info = { instanceId: next.instanceId, term: this.#nextTerm() };
    election.leader = { info, controller };
    const resign = () => {
      if (election.leader?.controller !== controller) return Promise.resolve();
      election.leader = undefined;
      controller.abort(new Error("leadership resigned"));
      this.#promote(namespace, election);
      return Promise.resolve();
    };
    next.win({ namespace, term: info.term, signal: controller.signal, resign });
  }
}
