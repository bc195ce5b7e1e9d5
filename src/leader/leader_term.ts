/**
 * What a namespace leader does during its term: claim the namespace (the
 * fencing token), then run the rebalance pipeline until the term ends.
 *
 * ```
 * cache.triggers ─┐
 *                 ├─ merge ─ ThrottleStream(cooldown) ─ RebalanceSink(plan → fenced commit)
 * ticker(period) ─┘
 * ```
 *
 * @module
 */
import { type Clock, systemClock } from "../core/clock.ts";
import { FencedError } from "../core/errors.ts";
import type { Logger } from "../core/logger.ts";
import { type AssignmentDelta, isEmptyDelta } from "../core/types.ts";
import type { NamespaceCache } from "../state/namespace_cache.ts";
import type { Fence, Store, Versioned } from "../store/store.ts";
import type { Leadership } from "../store/leader_store.ts";
import { mergeStreams } from "../streams/merge_streams.ts";
import { ThrottleStream } from "../streams/throttle_stream.ts";
import { ticker } from "../streams/ticker.ts";
import { describeReleases, type Release } from "./describe_change.ts";
import { IdlePassGate } from "./idle_pass_gate.ts";
import { type ExecutorAt, type PlacementReport, planInput, planPass } from "../plan/mod.ts";
import type { NamespacePolicy } from "../policy/namespace_policy.ts";

/** Fold the change log into a snapshot every this many changes. */
export const COMPACT_EVERY = 64;

/** Everything a leader term needs. */
export interface LeaderTermOptions {
  /** This instance. */
  readonly instanceId: string;
  /** The namespace's followed state. */
  readonly cache: NamespaceCache;
  /** The main store. */
  readonly store: Store;
  /** The namespace's policy: how passes plan, how often they run. */
  readonly policy: Pick<
    NamespacePolicy,
    "plan" | "periodMs" | "cooldownMs" | "executorRetentionMs"
  >;
  /** Operator moves of a cells namespace not yet committed (a pass input outside the store). */
  readonly cellMoves?: { readonly pending: ReadonlyMap<string, string>; readonly version: number };
  /** Where to log. */
  readonly logger: Logger;
  /** Time source. @default {systemClock} */
  readonly clock?: Clock;
  /** Called after each planned pass; idle passes skipped by the gate are not. */
  readonly onPass?: (
    info: { moves: number; changed: boolean; durationMs: number; placement?: PlacementReport },
  ) => void;
}

/**
 * Leads until `signal` aborts (term over, leadership lost, shutdown) or a
 * write is fenced off. Resolves normally in every case but a store failure
 * while claiming.
 */
export async function runLeaderTerm(
  leadership: Leadership,
  signal: AbortSignal,
  options: LeaderTermOptions,
): Promise<void> {
  const clock = options.clock ?? systemClock;
  const { cache, store } = options;
  const namespace = cache.state.namespace;
  const logger = options.logger.with({ namespace, term: leadership.term });
  const fence = await store.claimLeadership(namespace, {
    term: leadership.term,
    instanceId: options.instanceId,
    sinceMs: clock.now(),
  });
  await cache.waitForRevision(fence.revision, signal);
  logger.info("leading namespace");
  const stop = new AbortController();
  const term = AbortSignal.any([signal, stop.signal]);
  const wake = new WakeTimer(term, clock);
  const triggers = mergeStreams(
    cache.triggers.changes(term, 0),
    ticker(options.policy.periodMs, term),
    wake.readable,
  ).pipeThrough(new ThrottleStream({ cooldownMs: options.policy.cooldownMs }));
  const gate = new IdlePassGate(options.policy.executorRetentionMs);
  const placement = new PlacementLog(logger);
  const sink = new WritableStream<number>({
    write: async () => {
      try {
        await runPass(fence, options, clock, term, { wake, gate, placement });
      } catch (error) {
        if (error instanceof HeardFromError) {
          logger.info("an executor thought lost was heard from; its shards stay", { error });
        } else if (error instanceof FencedError) {
          logger.warn("leadership lost: a write was fenced off", { error });
          stop.abort(error);
        } else if (!term.aborted) logger.warn("rebalance pass failed; will retry", { error });
      }
    },
  });
  await triggers.pipeTo(sink, { signal: term }).catch(() => {});
  wake.cancel();
  logger.info("stopped leading namespace");
}

/** A commit that relied on expired leases was refused: one of those executors was heard from. */
class HeardFromError extends Error {
  override readonly name = "HeardFromError";
}

/** A trigger stream fed by one timer, set for when a waiting handover may proceed. */
class WakeTimer {
  readonly readable: ReadableStream<number>;
  #controller!: ReadableStreamDefaultController<number>;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #clock: Clock;

  constructor(signal: AbortSignal, clock: Clock) {
    this.#clock = clock;
    this.readable = new ReadableStream<number>({ start: (c) => void (this.#controller = c) });
    signal.addEventListener("abort", () => this.cancel(), { once: true });
  }

  /** Triggers a pass at monotonic time `atMs` (replacing any earlier setting). */
  at(atMs: number | undefined): void {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
    if (atMs === undefined) return;
    const delay = Math.max(0, Math.ceil(atMs - this.#clock.monotonic()) + 1);
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      try {
        this.#controller.enqueue(atMs);
      } catch { /* closed */ }
    }, delay);
  }

  cancel(): void {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
    try {
      this.#controller.close();
    } catch { /* already closed */ }
  }
}

/**
 * Logs what a replicated namespace's placement achieved whenever it changes:
 * a warning while shards are short of owners, badly spread or over the
 * overlap bound, one info line when that ends.
 */
class PlacementLog {
  #logger: Logger;
  #last = "";

  constructor(logger: Logger) {
    this.#logger = logger;
  }

  report(report: PlacementReport): void {
    const key = JSON.stringify(report);
    if (key === this.#last) return;
    const hadProblem = this.#last !== "" && problem(JSON.parse(this.#last) as PlacementReport);
    this.#last = key;
    if (problem(report)) {
      this.#logger.warn("owner sets fall short of the placement asked for", { ...report });
    } else if (hadProblem) {
      this.#logger.info("owner sets meet the placement asked for", { ...report });
    }
  }
}

function problem(report: PlacementReport): boolean {
  return report.shortShards > 0 || report.zoneSpreadViolations > 0 ||
    (report.shardsOverBound ?? 0) > 0;
}

/** Executors named one by one in a change's log lines; the rest are summed up. */
const RELEASES_LOGGED = 20;

function logChange(
  logger: Logger,
  seq: number,
  plan: { delta: AssignmentDelta; moves: number; placement?: PlacementReport },
  releases: readonly Release[],
): void {
  const assigned = Object.values(plan.delta.assign).reduce((n, shards) => n + shards.length, 0);
  logger.info("assignment committed", {
    seq,
    assigned,
    unassigned: plan.delta.unassign.length,
    removed: plan.delta.remove.length,
    moves: plan.moves,
    ...(plan.delta.hide ? { hiddenStale: Object.keys(plan.delta.hide).length } : {}),
    ...(plan.placement ? { ...plan.placement } : {}),
  });
  for (const release of releases.slice(0, RELEASES_LOGGED)) {
    if (release.reason === "rebalance") continue;
    logger.info("executor released shards", { ...release });
  }
  if (releases.length > RELEASES_LOGGED) {
    logger.info("more executors released shards", { executors: releases.length - RELEASES_LOGGED });
  }
}

async function runPass(
  fence: Fence,
  options: LeaderTermOptions,
  clock: Clock,
  signal: AbortSignal,
  timing: { wake: WakeTimer; gate: IdlePassGate; placement: PlacementLog },
): Promise<void> {
  const { cache, store } = options;
  const logger = options.logger.with({ namespace: cache.state.namespace });
  const started = clock.monotonic();
  const state = cache.state;
  if (!cache.synced) return;
  const { wake, gate } = timing;
  const moves = options.cellMoves;
  const inputsVersion = state.inputsVersion + (moves?.version ?? 0);
  if (gate.canSkip(state, started, inputsVersion)) return;
  const input = planInput(state, started, moves ? { cellMoves: moves.pending } : {});
  const plan = planPass(input, options.policy.plan);
  wake.at(plan.wakeAtMs);
  if (plan.placement) timing.placement.report(plan.placement);
  const changed = !isEmptyDelta(plan.delta);
  if (changed) {
    const seq = state.seq + 1;
    const releases = describeReleases(state, plan.delta, clock.monotonic());
    const delta = { ...plan.delta, atMs: clock.now() };
    const reliedOn = plan.reliedOn.map(atRevision);
    const revision = await store.commitAssignment(fence, seq, delta, reliedOn)
      .catch((error) => {
        // Refused because a relied-on executor heartbeated, or fenced: the next pass tells.
        const stillLeading = cache.state.leader?.revision === fence.revision;
        if (error instanceof FencedError && reliedOn.length > 0 && stillLeading) {
          throw new HeardFromError(`Assignment change ${seq} was refused`, { cause: error });
        }
        throw error;
      });
    logChange(logger, seq, plan, releases);
    await cache.waitForRevision(revision, signal);
    if (seq % COMPACT_EVERY === 0) {
      const tables = state.tables();
      await store.compactAssignment(fence, seq, {
        owners: tables.owners,
        ownerSets: tables.ownerSets,
        revisions: tables.assignedRevisions,
        times: tables.assignmentTimes,
        releasing: tables.releasing,
        hidden: tables.hidden,
      });
    }
  }
  if (plan.forget.length > 0) await store.removeExecutors(fence, plan.forget.map(atRevision));
  if (plan.answered.length > 0) {
    await store.clearRequests(
      fence,
      plan.answered.map(({ shardKey, revision }) => ({ id: shardKey, revision })),
    );
  }
  const didWork = changed || plan.forget.length > 0 || plan.answered.length > 0;
  gate.passed(state, { didWork, inputsVersion, wakeAtMs: plan.wakeAtMs }, started);
  const durationMs = clock.monotonic() - started;
  options.onPass?.({
    moves: plan.moves,
    changed,
    durationMs,
    ...(plan.placement ? { placement: plan.placement } : {}),
  });
}

/** A plan's executor as the store's conditional writes name it. */
function atRevision({ executorId, heartbeatRevision }: ExecutorAt): Versioned {
  return { id: executorId, revision: heartbeatRevision };
}
