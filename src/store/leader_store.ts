/**
 * The leader store port: per-namespace elections on a store with leases.
 *
 * @module
 */

/** Leadership won in an election; it ends when `signal` aborts. */
export interface Leadership {
  /** The namespace led. */
  readonly namespace: string;
  /** Grows with every change of leader: the fencing term. */
  readonly term: number;
  /** Aborts the moment leadership is lost (lease expired, key deleted, store lost). */
  readonly signal: AbortSignal;
  /** Gives leadership up; safe to call more than once. */
  resign(): Promise<void>;
}

/** Information about a namespace's current leader. */
export interface LeaderInfo {
  /** The leading instance. */
  readonly instanceId: string;
  /** Its term. */
  readonly term: number;
}

/** Runs elections. */
export interface LeaderStore {
  /**
   * Waits until this instance leads `namespace`, or rejects when `signal`
   * aborts. The session behind the leadership is a lease of `ttlMs`.
   */
  campaign(
    namespace: string,
    instanceId: string,
    options: { readonly ttlMs: number; readonly signal: AbortSignal },
  ): Promise<Leadership>;
  /** Who leads `namespace` now, if anyone. */
  leader(namespace: string): Promise<LeaderInfo | undefined>;
  /** Releases connections. */
  close(): Promise<void>;
}
