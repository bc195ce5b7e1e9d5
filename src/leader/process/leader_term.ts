/**
 * What a namespace leader does during its term: claim the namespace (the
 * fencing token), then run the rebalance pipeline until the term ends.
 *
 * ```
 * cache.triggers ─┐
 * ticker(period) ─┼─ mergeStreams ─ ThrottleStream(PassSpacing) ─ pass sink
 * WakeTimer ──────┘     (rebalance_pass.ts: gate → planInput → planPass → fenced_commit.ts)
 * ```
 *
 * @module
 */
import { type HistoryNote, MembershipTracker } from "./history_notes.ts";
import type { AdvertisedInstance, LeaderTermEnd } from "../../core/types.ts";
import { type Clock, sleep, systemClock } from "../../core/clock.ts";
import type { StoreEvidence } from "../../core/store_evidence.ts";
import { FencedError } from "../../core/errors.ts";
import type { Logger } from "../../core/logger.ts";
import type { NamespacePolicy } from "../../policy/namespace_policy.ts";
import type { NamespaceCache } from "../../state/namespace_cache.ts";
import type { Leadership } from "../../store/leader_store.ts";
import type { Fence, Store } from "../../store/store.ts";
import { mergeStreams } from "../../streams/merge_streams.ts";
import { ThrottleStream } from "../../streams/throttle_stream.ts";
import { ticker } from "../../streams/ticker.ts";
import { LossCheck } from "./loss_check.ts";
import { HeardFromError } from "./fenced_commit.ts";
import { IdlePassGate } from "./idle_pass_gate.ts";
import { PassSpacing } from "./pass_spacing.ts";
import { PlacementLog } from "./pass_log.ts";
import { type PassContext, type PassInfo, runRebalancePass } from "./rebalance_pass.ts";
import { WakeTimer } from "./wake_timer.ts";
import type { BrakeKeeper } from "./brake_keeper.ts";
import { PoisonDetector } from "../../plan/mod.ts";
import { type RotationDigest, takeoverNote, termEnd } from "./term_history.ts";
import type { SliceEdit } from "../../plan/slice_edits.ts";

export { COMPACT_EVERY } from "./fenced_commit.ts";
export type { PassInfo } from "./rebalance_pass.ts";

/** Everything a leader term needs. */
export interface LeaderTermOptions {
  /** This instance. */
  readonly instanceId: string;
  /** Records namespace history events (the recorder adds the time). @default {none} */
  readonly history?: (note: HistoryNote) => void;
  /** Where this instance can be reached, recorded in the claim when known. */
  readonly advertised?: () => AdvertisedInstance | undefined;
  /** The namespace's followed state. */
  readonly cache: NamespaceCache;
  /** The main store. */
  readonly store: Store;
  /** The namespace's policy: how passes plan, how often they run. */
  readonly policy: Pick<NamespacePolicy, "placement" | "budgets">;
  /** Operator moves of a cells namespace not yet committed (a pass input outside the store). */
  readonly cellMoves?: { readonly pending: ReadonlyMap<string, string>; readonly version: number };
  /** Operator edits of a key-range namespace's slices not yet committed (a pass input outside the store). */
  readonly sliceEdits?: { readonly pending: readonly SliceEdit[]; readonly version: number };
  /** Where to log. */
  readonly logger: Logger;
  /** Time source. @default {systemClock} */
  readonly clock?: Clock;
  /**
   * When the store last answered (see rebalance_pass.ts); a pass runs when it
   * answers again after a silence. @default {none: liveness by the clock}
   */
  readonly evidence?: StoreEvidence;
  /** Called after each planned pass; idle passes skipped by the gate are not. */
  readonly onPass?: (info: PassInfo) => void;
  /**
   * The gate that skips idle passes, kept by the caller across this
   * instance's terms (see idle_pass_gate.ts). @default {one for this term}
   */
  readonly gate?: IdlePassGate;
  /**
   * Counts routine rotations across this instance's terms (see
   * term_history.ts). @default {none: routine rotations are not recorded}
   */
  readonly rotations?: RotationDigest;
  /**
   * The mass-loss brake this term's passes observe and obey; resumed from the
   * store's record once the term holds the namespace. @default {none}
   */
  readonly brake?: BrakeKeeper;
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
    ...options.advertised?.(),
  });
  await cache.waitForRevision(fence.revision, signal);
  // Continue the brake the previous leader recorded (engaged, or lifted by an operator).
  await options.brake?.resume(fence);
  logger.info("leading namespace");
  const me = fence.claim;
  const { previous } = fence;
  const taking = takeoverNote(previous, me) ??
    (previous && options.rotations?.taken(previous, me, clock.now()));
  if (taking) options.history?.(taking);
  const stop = new AbortController();
  const term = AbortSignal.any([signal, stop.signal]);
  const passSpacing = new PassSpacing(options.policy.budgets.cooldownMs);
  const quarantine = options.policy.budgets.quarantine;
  const wake = new WakeTimer(term, clock);
  // After a store silence (passes skipped meanwhile), plan once it answers again.
  const unsubscribe = options.evidence?.onResume(() => wake.at(clock.monotonic()));
  term.addEventListener("abort", () => unsubscribe?.(), { once: true });
  const triggers = mergeStreams(
    cache.triggers.changes(term, 0),
    ticker(options.policy.budgets.periodMs, term, { clock }),
    wake.readable,
  ).pipeThrough(new ThrottleStream({ cooldownMs: () => passSpacing.cooldownMs(), clock }));
  const context: PassContext = {
    cache,
    store,
    fence,
    plan: options.policy.placement,
    ...(options.cellMoves ? { cellMoves: options.cellMoves } : {}),
    ...(options.sliceEdits ? { sliceEdits: options.sliceEdits } : {}),
    gate: options.gate ?? new IdlePassGate(options.policy.budgets.executorRetentionMs),
    wake,
    placement: new PlacementLog(logger),
    lossCheck: new LossCheck(store, fence.namespace),
    carry: { balancingUnfinished: false },
    ...(options.brake ? { brake: options.brake } : {}),
    ...(quarantine && quarantine.threshold > 0
      ? { quarantine: { detector: new PoisonDetector(quarantine) } }
      : {}),
    clock,
    ...(options.evidence ? { evidence: options.evidence } : {}),
    logger,
    onPass: (info) => {
      // Planning time only: waiting for the store (an outage, say) keeps nothing busy.
      passSpacing.planned(info.planMs);
      options.onPass?.(info);
    },
    ...(options.history
      ? { history: { note: options.history, membership: new MembershipTracker() } }
      : {}),
  };
  const sink = new WritableStream<number>({
    write: async () => {
      try {
        await runRebalancePass(context, term);
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
  // Why: "leader period over" (a planned handover), a lost lease, a fenced write,
  // a shutdown, or the namespace's definition changing.
  const reason = term.reason instanceof Error ? term.reason.message : String(term.reason);
  logger.info("stopped leading namespace", { reason });
  const end = termEnd(me, leadership.signal.aborted, term.reason);
  if (end.kind === "lost") options.history?.(end.note);
  else await handOver(store, fence, { ...end.end, atMs: clock.now() }, clock, logger);
}

/** Most time a handover mark may add to a term's end (a shutdown waits for it). */
const HANDOVER_MARK_MS = 1_000;

/** Marks the claim handed over, so that the next leader knows this term ended on purpose. */
async function handOver(
  store: Store,
  fence: Fence,
  end: LeaderTermEnd,
  clock: Clock,
  logger: Logger,
): Promise<void> {
  const done = new AbortController();
  const late = sleep(HANDOVER_MARK_MS, done.signal, clock).then(() => "late" as const);
  try {
    const marked = store.endLeadership(fence, end).then(() => "marked" as const);
    if (await Promise.race([marked, late]) === "late") {
      logger.info("handover not marked in time; the next leader will report no handover");
    }
  } catch (error) {
    logger.info("handover not marked; the next leader will report no handover", { error });
  } finally {
    done.abort();
    await late.catch(() => {});
  }
}
