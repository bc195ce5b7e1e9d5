/**
 * One rebalance pass of a leader term: skip it when nothing it reads can have
 * changed, else build the input from the namespace's view, plan (pure), and
 * write the plan (fenced).
 *
 * @module
 */
import { assignmentNote, type HistoryNote, type MembershipTracker } from "./history_notes.ts";
import type { Clock } from "../../core/clock.ts";
import type { StoreEvidence } from "../../core/store_evidence.ts";
import { nextTurn } from "../../core/event_loop_turn.ts";
import type { Logger } from "../../core/logger.ts";
import { isEmptyDelta } from "../../core/types.ts";
import {
  type HandoverCounts,
  type MoveCounts,
  type PlacementReport,
  planInput,
  planPass,
  type PlanPolicy,
} from "../../plan/mod.ts";
import type { NamespaceCache } from "../../state/namespace_cache.ts";
import type { Fence, Store } from "../../store/store.ts";
import { describeReleases } from "./describe_change.ts";
import { cleanUpAfter, commitChange, compactIfDue } from "./fenced_commit.ts";
import type { IdlePassGate } from "./idle_pass_gate.ts";
import { logChange, type PlacementLog } from "./pass_log.ts";
import type { WakeTimer } from "./wake_timer.ts";
import type { BrakeExecutor } from "./mass_loss_brake.ts";
import type { BrakeKeeper } from "./brake_keeper.ts";
import type { NamespaceView } from "../../state/namespace_view.ts";
import { type QuarantineCarry, quarantineStep } from "./quarantine_step.ts";
import { type LossCheck, lostExecutors } from "./loss_check.ts";
import type { SliceEdit } from "../../plan/slice_edits.ts";

/** What a planned pass reports (for metrics). */
export interface PassInfo {
  /** Shards that moved between live executors. */
  readonly moves: number;
  /** Whether a change was committed. */
  readonly changed: boolean;
  /** Time from planning to the last write. */
  readonly durationMs: number;
  /** Of which planning (building the input and planning: the thread is busy). */
  readonly planMs: number;
  /** Replicated namespaces: what the placement achieved. */
  readonly placement?: PlacementReport;
  /** Owner changes committed, by reason; absent when nothing was committed. */
  readonly reasons?: MoveCounts;
  /** Warm handovers committed, by outcome; absent when none. */
  readonly handovers?: HandoverCounts;
  /** Time each switched handover spent preparing (ms). */
  readonly prepareMs?: readonly number[];
  /** Poison shards quarantined by this pass; absent when none. */
  readonly quarantined?: number;
}

/** What the passes of one term share. */
export interface PassContext {
  /** The namespace's followed state. */
  readonly cache: NamespaceCache;
  /** The main store. */
  readonly store: Store;
  /** The term's proof of leadership. */
  readonly fence: Fence;
  /** How the namespace plans. */
  readonly plan: PlanPolicy;
  /** Operator moves of a cells namespace (a pass input outside the store). */
  readonly cellMoves?: { readonly pending: ReadonlyMap<string, string>; readonly version: number };
  /** Operator edits of a key-range namespace's slices not yet committed. */
  readonly sliceEdits?: { readonly pending: readonly SliceEdit[]; readonly version: number };
  /** Skips passes that would plan nothing new. */
  readonly gate: IdlePassGate;
  /** Runs a pass when a waiting handover may proceed. */
  readonly wake: WakeTimer;
  /** Logs replicated placement. */
  readonly placement: PlacementLog;
  /** Time source. */
  readonly clock: Clock;
  /**
   * When the store last answered: liveness is judged at that time, and no
   * pass runs while the store is silent. @default {none: liveness by the clock}
   */
  readonly evidence?: StoreEvidence;
  /**
   * Confirms in the store that executors the picture shows as lost did not
   * heartbeat since (a picture behind the store judges nothing).
   * @default {none: the picture is trusted}
   */
  readonly lossCheck?: LossCheck;
  /** Records namespace history (membership and committed changes). @default {none} */
  readonly history?: {
    readonly note: (note: HistoryNote) => void;
    readonly membership: MembershipTracker;
  };
  /** Where to log. */
  readonly logger: Logger;
  /** Called after each planned pass. */
  readonly onPass?: (info: PassInfo) => void;
  /**
   * The mass-loss brake: observed before each pass, obeyed by the planner,
   * recorded in the store (fenced). @default {none}
   */
  readonly brake?: BrakeKeeper;
  /** What the term's passes carry from one to the next. */
  readonly carry?: { balancingUnfinished: boolean; coldStartLogged?: boolean };
  /** Poison-shard quarantine (quarantine_step.ts). @default {none: no quarantine} */
  readonly quarantine?: QuarantineCarry;
}

/** Runs one pass; throws what the fenced writes throw (see fenced_commit.ts). */
export async function runRebalancePass(context: PassContext, signal: AbortSignal): Promise<void> {
  const { cache, store, fence, clock, gate, wake } = context;
  // Whatever woke this pass (a large change applied, say) may have held the thread: let
  // timers and sockets have it first, lease keep-alives among them.
  await nextTurn();
  if (signal.aborted) return;
  const started = clock.monotonic();
  const state = cache.state;
  if (!cache.synced) return;
  // Silence of the store says nothing about executors: plan nothing until it answers again
  // (the term's resume listener runs a pass then). Otherwise judge at its last answer, so a
  // stall that began since then is never counted against anyone.
  const evidence = context.evidence;
  if (evidence?.silentAt(started)) return;
  const now = evidence ? evidence.vouchedAt(started) : started;
  // A picture behind the store (its watch on an etcd member that stopped answering) shows
  // executors as lost that are not: judge nothing until it has caught up (loss_check.ts).
  const lost = lostExecutors(state, now); // the most recently seen first
  const behind = await context.lossCheck?.behind(lost);
  if (signal.aborted) return;
  if (behind) {
    if (behind.first) {
      context.logger.warn(
        "the namespace's change feed is behind the store: no executor is judged lost until it " +
          "catches up",
        { executorId: behind.executorId, seenRevision: behind.seen, storedRevision: behind.stored },
      );
    }
    return;
  }
  // Times the plan asks to be woken at are on that judged time: wake as much later.
  const wakeAt = (at: number | undefined) => at === undefined ? undefined : at + (started - now);
  for (const note of context.history?.membership.observe(state, now) ?? []) {
    context.history?.note(note);
  }
  const brake = context.brake;
  if (brake) {
    const note = brake.observe(brakeView(state, now), now);
    if (note) {
      context.logger.warn(note.text, { reason: note.reason });
      context.history?.note(note);
    }
    // Recorded before the plan obeys it (the next leader continues from the record); a record
    // whose write failed is written again here.
    await brake.saved();
  }
  // Before the plan: a lost executor's shards are still its own in this picture.
  const quarantined = context.quarantine
    ? await quarantineStep(
      context.quarantine,
      {
        cache,
        store,
        fence,
        logger: context.logger,
        ...(context.history ? { note: context.history.note } : {}),
        nowMs: clock.now(),
      },
      now,
      signal,
    )
    : 0;
  const moves = context.cellMoves;
  const edits = context.sliceEdits;
  const inputsVersion = state.inputsVersion + (moves?.version ?? 0) + (edits?.version ?? 0) +
    (brake?.version ?? 0) +
    (context.quarantine?.detector.version ?? 0);
  if (quarantined === 0 && gate.canSkip(state, now, inputsVersion)) {
    // The gate may have been set in an earlier term: this term's timer must know the wake time.
    wake.at(wakeAt(gate.wakeAtMs));
    return;
  }
  const carry = context.carry;
  const input = planInput(state, now, {
    ...(moves ? { cellMoves: moves.pending } : {}),
    ...(edits ? { sliceEdits: edits.pending } : {}),
    ...(carry?.balancingUnfinished ? { balancingUnfinished: true } : {}),
    ...(brake?.hold ? { brake: { executorsBefore: brake.hold.executorsBefore } } : {}),
    ...(context.quarantine
      ? {
        failedWith: context.quarantine.detector.failedWith(),
        restartedOwners: context.quarantine.detector.restartedOwners(),
      }
      : {}),
  });
  const plan = planPass(input, context.plan);
  const planMs = clock.monotonic() - started;
  wake.at(wakeAt(plan.wakeAtMs));
  if (plan.placement) context.placement.report(plan.placement);
  if (plan.coldStartUntilMs !== undefined && !carry?.coldStartLogged) {
    if (carry) carry.coldStartLogged = true;
    context.logger.info("first deploy: placement waits for executors to stop joining", {
      waitMs: Math.round(plan.coldStartUntilMs - now),
    });
  }
  const changed = !isEmptyDelta(plan.delta);
  if (changed) {
    const seq = state.seq + 1;
    const releases = describeReleases(state, plan.delta, clock.monotonic());
    const delta = {
      ...plan.delta,
      ...(plan.reasons && hasMoves(plan.reasons) ? { moves: plan.reasons } : {}),
      atMs: clock.now(),
    };
    const note = context.history &&
      assignmentNote(state, seq, fence.claim.term, delta, releases, plan.handovers);
    const committing = clock.monotonic();
    // A lost executor heard from between the judgement and this commit refuses it.
    const revision = await commitChange(store, cache, fence, { seq, delta, plan, lost });
    logChange(context.logger, seq, plan, releases, {
      planMs,
      commitMs: clock.monotonic() - committing,
    });
    if (note) context.history?.note(note);
    try {
      await cache.waitForRevision(revision, signal);
      await compactIfDue(store, cache, fence, seq);
    } catch (error) {
      // The change is committed even when the term ends now (a commit that waited out a
      // store stall lands as leadership is lost): its moves are counted all the same.
      report(context, started, planMs, plan, true, quarantined);
      throw error;
    }
  }
  if (carry) carry.balancingUnfinished = changed && plan.balancingUnfinished === true;
  await cleanUpAfter(store, fence, plan);
  const didWork = changed || plan.forget.length > 0 || plan.answered.length > 0;
  gate.passed(state, { didWork, inputsVersion, wakeAtMs: plan.wakeAtMs }, now);
  report(context, started, planMs, plan, changed, quarantined);
}

function report(
  context: PassContext,
  started: number,
  planMs: number,
  plan: ReturnType<typeof planPass>,
  changed: boolean,
  quarantined: number,
): void {
  context.onPass?.({
    moves: plan.moves,
    changed,
    durationMs: context.clock.monotonic() - started,
    planMs,
    ...(plan.placement ? { placement: plan.placement } : {}),
    ...(changed && plan.reasons ? { reasons: plan.reasons } : {}),
    ...(changed && plan.handovers ? { handovers: plan.handovers } : {}),
    ...(changed && plan.prepareMs?.length ? { prepareMs: plan.prepareMs } : {}),
    ...(quarantined > 0 ? { quarantined } : {}),
    ...(changed && plan.ranges ? { ranges: plan.ranges } : {}),
  });
}

/** The executors of `state` as the brake judges them at monotonic `now`. */
function* brakeView(state: NamespaceView, now: number): Iterable<BrakeExecutor> {
  for (const e of state.executors()) {
    yield {
      executorId: e.executorId,
      alive: state.isAlive(e, now),
      status: e.status,
      operatorDrained: state.isExecutorDrained(e),
      seenAtMs: e.seenAtMs,
      lastHeartbeatMs: e.lastHeartbeatMs,
      witnessed: e.heartbeatRevision > state.loadedRevision,
    };
  }
}

function hasMoves(reasons: MoveCounts): boolean {
  return reasons.placement + reasons.balance + reasons.drain + reasons.loss > 0;
}
