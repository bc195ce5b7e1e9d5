/**
 * Poison shards (a "key of death"): a shard whose processor crashes its
 * process or whose start always fails walks through the fleet, one executor
 * at a time. The detector counts, per shard and over a window, the distinct
 * executors that failed with it:
 *
 * - an executor that reports failed starts of the shard (`failed_starts`);
 * - an executor lost (stale) within `recentMs` of receiving the shard: its
 *   last heartbeat came no later than `recentMs` after the shard was given to
 *   it (and not before: a shard given to an executor already dead was never
 *   received), and its last report did not show the shard running (a shard
 *   it reported READY or DONE had started fine: the death is not blamed on
 *   it, so shards that merely shared the executor are spared);
 * - an executor that restarted under the same id (its heartbeat carries a
 *   new `incarnation`) within `recentMs` of receiving the shard, which its
 *   previous life did not report running: a process that a shard kills and
 *   a supervisor restarts before it goes stale. The shard is then moved off
 *   it ({@linkcode PoisonDetector.restartedOwners}), as after failed starts,
 *   so that it meets distinct executors.
 *
 * Once a shard reaches `threshold` executors it is to be quarantined (the
 * leader drains it with the reason `quarantined`). A fleet-wide failure is
 * not a poison shard: when more than `massShare` of the executors are lost
 * at once (and more than one), or more than `massShare` of the shards (and
 * more than one) fail to start at once or reach the threshold at once,
 * nothing of it is counted or quarantined and the verdict says why. Pure: the caller passes the time and the picture;
 * the detector keeps only its counts, from one observation to the next.
 *
 * @module
 */

/** How the detector judges; see {@linkcode PoisonDetector}. */
export interface QuarantineSettings {
  /** Distinct executors that must fail with a shard; 0 turns quarantine off. */
  readonly threshold: number;
  /** How long a failure counts (ms). */
  readonly windowMs: number;
  /** A lost executor counts against the shards it received this recently before its last heartbeat (ms). */
  readonly recentMs: number;
  /** Share (0 to 1) of the executors, or of the shards, past which a failure is fleet-wide. */
  readonly massShare: number;
  /**
   * Executors lost within this long of each other were lost "at once" (ms).
   * @default {recentMs / 4: half a heartbeat TTL}
   */
  readonly massWindowMs?: number;
}

/** Defaults of a namespace's quarantine settings (`recentMs` is twice its heartbeat TTL). */
export const DEFAULT_QUARANTINE = Object.freeze({
  threshold: 3,
  windowMs: 600_000,
  massShare: 0.1,
});

/** One executor as the detector sees it at an observation. */
export interface PoisonExecutor {
  /** Executor id. */
  readonly executorId: string;
  /** Whether it is alive now. */
  readonly alive: boolean;
  /** Wall-clock time of its last heartbeat (ms since epoch). */
  readonly lastHeartbeatMs: number;
  /** Shards it reports failed starts of (consecutive failed starts > 0). */
  readonly failedStarts: Iterable<string>;
  /**
   * The shards it owns, each with when it was given them (ms since epoch, if
   * known) and whether its last report showed it running (READY or DONE).
   */
  readonly owned: () => Iterable<readonly [string, number | undefined, boolean]>;
  /** Its process's id for this life, from its last heartbeat (absent: not sent). */
  readonly incarnation?: string;
  /** Whether its last report shows `shard` running (READY or DONE), kept for its next life. */
  readonly running?: (shardKey: string) => boolean;
}

/** What the namespace looks like at one observation. */
export interface PoisonObservation {
  /** Wall-clock time (ms since epoch). */
  readonly nowMs: number;
  /** Shards the namespace has (owned, drained or waiting). */
  readonly shardCount: number;
  /** Every executor known. */
  readonly executors: Iterable<PoisonExecutor>;
  /** Shards already quarantined (or drained): never counted. */
  readonly excluded: (shardKey: string) => boolean;
}

/** A shard to quarantine and the executors that failed with it. */
export interface Quarantine {
  /** The shard. */
  readonly shardKey: string;
  /** The executors that failed with it within the window, sorted. */
  readonly executors: readonly string[];
}

/** What one observation found. */
export interface PoisonVerdict {
  /** Shards to quarantine now. */
  readonly quarantine: readonly Quarantine[];
  /** Set when a fleet-wide failure was seen: nothing of it was counted, and why. */
  readonly massLoss?: string;
}

/**
 * Counts failures per shard across observations.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { PoisonDetector } from "./poison_detector.ts";
 *
 * const detector = new PoisonDetector({ threshold: 2, windowMs: 60_000, recentMs: 4_000, massShare: 0.1 });
 * const executor = (id: string, failing: string[]) => ({
 *   executorId: id, alive: true, lastHeartbeatMs: 0, failedStarts: failing, owned: () => [],
 * });
 * const observe = (nowMs: number, ...executors: ReturnType<typeof executor>[]) =>
 *   detector.observe({ nowMs, shardCount: 100, executors, excluded: () => false });
 * assert.deepEqual(observe(1_000, executor("a", ["7"]), executor("b", [])).quarantine, []);
 * assert.deepEqual(observe(2_000, executor("a", []), executor("b", ["7"])).quarantine, [
 *   { shardKey: "7", executors: ["a", "b"] },
 * ]);
 * ```
 */
export class PoisonDetector {
  readonly #settings: QuarantineSettings;
  /** Shard → executor → when it last failed with it (ms since epoch). */
  readonly #failures = new Map<string, Map<string, number>>();
  /** Executors alive at the last observation (undefined before the first). */
  #alive: Set<string> | undefined;
  /** Executors found lost, with when, within the last `massWindowMs`. */
  #losses: { readonly executorId: string; readonly atMs: number }[] = [];
  /** Each executor's life at the last observation: its incarnation and what it ran. */
  readonly #lives = new Map<string, Pick<PoisonExecutor, "incarnation" | "running">>();
  /** Shard → the executor whose restart was blamed on it, and when: to be moved off it. */
  readonly #restarted = new Map<string, { readonly executorId: string; readonly atMs: number }>();
  #version = 0;

  /** A detector with `settings`; throws a `RangeError` for settings out of range. */
  constructor(settings: QuarantineSettings) {
    const { threshold, windowMs, recentMs, massShare } = settings;
    if (!Number.isInteger(threshold) || threshold < 0) {
      throw new RangeError(`Quarantine threshold must be an integer >= 0, got ${threshold}`);
    }
    if (!(windowMs > 0) || !(recentMs > 0)) {
      throw new RangeError(`Quarantine windows must be > 0 ms, got ${windowMs} and ${recentMs}`);
    }
    if (!(massShare >= 0 && massShare <= 1)) {
      throw new RangeError(`Quarantine massShare must be from 0 to 1, got ${massShare}`);
    }
    this.#settings = settings;
  }

  /** Shards with at least one failure in the window (for inspection and tests). */
  get suspects(): number {
    return this.#failures.size;
  }

  /**
   * Shard → the executors that failed with it within the window: a pass
   * places a shard elsewhere when it can (start_failover.ts), so that a
   * shard failing everywhere meets distinct executors.
   */
  failedWith(): Map<string, ReadonlySet<string>> {
    const out = new Map<string, ReadonlySet<string>>();
    for (const [shardKey, by] of this.#failures) out.set(shardKey, new Set(by.keys()));
    return out;
  }

  /** Grows whenever {@linkcode restartedOwners} gains an entry: a pass input like the state's. */
  get version(): number {
    return this.#version;
  }

  /**
   * Shard → the executor that restarted with it (a restart blamed on it, see
   * above), within the window: a pass moves the shard off that executor, as
   * it does after failed starts (start_failover.ts).
   */
  restartedOwners(): Map<string, string> {
    const out = new Map<string, string>();
    for (const [shardKey, { executorId }] of this.#restarted) out.set(shardKey, executorId);
    return out;
  }

  /** Takes one observation; returns the shards to quarantine now. */
  observe(observation: PoisonObservation): PoisonVerdict {
    const { threshold, windowMs, recentMs, massShare } = this.#settings;
    const { nowMs, excluded } = observation;
    const executors = [...observation.executors];
    const before = this.#alive;
    this.#alive = new Set(executors.filter((e) => e.alive).map((e) => e.executorId));
    if (threshold === 0) return { quarantine: [] };
    this.#forget(nowMs - windowMs);
    // Failures seen now: shard → executors.
    const seen = new Map<string, Set<string>>();
    const note = (shardKey: string, executorId: string) => {
      if (excluded(shardKey)) return;
      let by = seen.get(shardKey);
      if (!by) seen.set(shardKey, by = new Set());
      by.add(executorId);
    };
    for (const e of executors) for (const shardKey of e.failedStarts) note(shardKey, e.executorId);
    const lost = before === undefined
      ? []
      : executors.filter((e) => !e.alive && before.has(e.executorId));
    const restarted = this.#restarts(executors);
    const known = Math.max(executors.length, before?.size ?? 0);
    const massExecutors = Math.max(1, massShare * known);
    const massShards = Math.max(1, massShare * observation.shardCount);
    // Losses within massWindowMs of each other are one event, even when passes saw them apart.
    const massWindowMs = this.#settings.massWindowMs ?? recentMs / 4;
    this.#losses = this.#losses.filter((l) => l.atMs >= nowMs - massWindowMs);
    // A restart is a loss and a return: many at once is fleet-wide too. An executor restarting
    // again after one already blamed (it got the shard once more before it was moved off) is
    // the same failure.
    const blamed = new Set<string>();
    for (const by of this.#failures.values()) for (const id of by.keys()) blamed.add(id);
    for (const { e } of restarted) {
      if (!blamed.has(e.executorId)) this.#losses.push({ executorId: e.executorId, atMs: nowMs });
    }
    for (const e of lost) this.#losses.push({ executorId: e.executorId, atMs: nowMs });
    // Distinct executors: one restarting again and again is one executor.
    const together = new Set(this.#losses.map((l) => l.executorId));
    if (together.size > massExecutors) {
      // What the first of them were blamed for is taken back too.
      for (const [shardKey, by] of this.#failures) {
        for (const id of together) by.delete(id);
        if (by.size === 0) this.#failures.delete(shardKey);
      }
      return {
        quarantine: [],
        massLoss: `${together.size} of ${known} executors lost at once ` +
          `(more than ${percent(massShare)}): a fleet-wide failure, no shard is blamed`,
      };
    }
    // Starts failing on many shards at once is a dependency down, not a poison shard.
    if (seen.size > massShards) {
      return {
        quarantine: [],
        massLoss: `${seen.size} of ${observation.shardCount} shards fail to start at once ` +
          `(more than ${percent(massShare)}): a fleet-wide failure, no shard is blamed`,
      };
    }
    for (const e of lost) {
      for (const [shardKey, givenAt, running] of e.owned()) {
        if (givenAt === undefined || running) continue;
        const held = e.lastHeartbeatMs - givenAt;
        if (held >= 0 && held <= recentMs) note(shardKey, e.executorId);
      }
    }
    for (const { e, ranBefore } of restarted) {
      let move: { shardKey: string; score: number } | undefined;
      for (const [shardKey, givenAt] of e.owned()) {
        if (givenAt === undefined || ranBefore?.(shardKey)) continue;
        const held = e.lastHeartbeatMs - givenAt;
        if (held < 0 || held > recentMs || excluded(shardKey)) continue;
        note(shardKey, e.executorId);
        // Move one shard per restart, the most suspect (then the first by key): shards given
        // together would otherwise travel together and all reach the threshold at once.
        const score = this.#failures.get(shardKey)?.size ?? 0;
        if (!move || score > move.score || (score === move.score && shardKey < move.shardKey)) {
          move = { shardKey, score };
        }
      }
      if (move) {
        this.#restarted.set(move.shardKey, { executorId: e.executorId, atMs: nowMs });
        this.#version++;
      }
    }
    for (const [shardKey, by] of seen) {
      let counted = this.#failures.get(shardKey);
      if (!counted) this.#failures.set(shardKey, counted = new Map());
      for (const executorId of by) counted.set(executorId, nowMs);
    }
    const quarantine: Quarantine[] = [];
    for (const [shardKey, by] of this.#failures) {
      if (by.size >= threshold && !excluded(shardKey)) {
        quarantine.push({ shardKey, executors: [...by.keys()].sort() });
      }
    }
    if (quarantine.length > massShards) {
      for (const { shardKey } of quarantine) this.#failures.delete(shardKey);
      return {
        quarantine: [],
        massLoss: `${quarantine.length} of ${observation.shardCount} shards reached the ` +
          `quarantine threshold at once (more than ${percent(massShare)}): a fleet-wide ` +
          `failure, none is quarantined`,
      };
    }
    return { quarantine };
  }

  /**
   * Forgets the failures counted against `shardKeys`: call it once they are
   * quarantined (so that an operator's undrain starts them afresh).
   */
  forget(shardKeys: Iterable<string>): void {
    for (const shardKey of shardKeys) {
      this.#failures.delete(shardKey);
      this.#restarted.delete(shardKey);
    }
  }

  /**
   * The executors alive now whose incarnation changed since the last
   * observation, each with what its previous life reported running; keeps
   * this life for the next observation.
   */
  #restarts(executors: readonly PoisonExecutor[]) {
    const restarted: {
      e: PoisonExecutor;
      ranBefore: ((shardKey: string) => boolean) | undefined;
    }[] = [];
    for (const e of executors) {
      const last = this.#lives.get(e.executorId);
      if (e.incarnation === undefined) continue;
      if (last?.incarnation !== undefined && last.incarnation !== e.incarnation && e.alive) {
        restarted.push({ e, ranBefore: last.running });
      }
      const life = { incarnation: e.incarnation, ...(e.running ? { running: e.running } : {}) };
      this.#lives.set(e.executorId, life);
    }
    if (this.#lives.size > 2 * executors.length) {
      const known = new Set(executors.map((e) => e.executorId));
      for (const id of this.#lives.keys()) if (!known.has(id)) this.#lives.delete(id);
    }
    return restarted;
  }

  /** Drops failures older than `since`. */
  #forget(since: number): void {
    for (const [shardKey, { atMs }] of this.#restarted) {
      if (atMs < since) this.#restarted.delete(shardKey);
    }
    for (const [shardKey, by] of this.#failures) {
      for (const [executorId, at] of by) if (at < since) by.delete(executorId);
      if (by.size === 0) this.#failures.delete(shardKey);
    }
  }
}

function percent(share: number): string {
  return `${Math.round(share * 100)}%`;
}
