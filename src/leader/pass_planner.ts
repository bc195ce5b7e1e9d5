/**
 * One rebalance pass as a pure function: from the namespace's picture to the
 * change to commit. No I/O and no clock: `now` is an argument.
 *
 * @module
 */
import type { AssignmentDelta, NamespaceType } from "../core/types.ts";
import type { LoadBalancer } from "../loadbalancer/mod.ts";
import type { NamespaceState } from "../state/namespace_state.ts";
import { MAX_UNCHANGED_EXECUTORS, type Versioned } from "../store/store.ts";
import { type ExclusiveOwnership, HandoverGuard } from "./handover_guard.ts";
import { type CellsPassOptions, planCellsPass } from "./cells_pass.ts";
import { type PlacementReport, planOwnerSets, type ReplicationOptions } from "./replicas_pass.ts";
import { staleToHide } from "./hide_stale.ts";

/** The namespace's shape. */
export interface NamespaceShape {
  /** fixed or ephemeral. */
  readonly type: NamespaceType;
  /** Number of shards of a fixed namespace. */
  readonly shardNum?: number;
}

/** Knobs of a pass. */
export interface PassOptions {
  /** The load balancer. */
  readonly balancer: LoadBalancer;
  /** Balancing moves allowed in this pass. */
  readonly maxMoves: number;
  /** Stale executors that own nothing are forgotten after this long unseen. */
  readonly executorRetentionMs: number;
  /** Set for an exclusive namespace: shards move only through handovers. */
  readonly exclusive?: ExclusiveOwnership;
  /** Set for a `mode: cells` namespace: sticky placement, no balancing (see cells_pass.ts). */
  readonly cells?: Omit<CellsPassOptions, "executorRetentionMs">;
  /** Set for a namespace with `replicas` above 1: owner sets instead of the balancer. */
  readonly replication?: ReplicationOptions;
}

/** What a pass decided. */
export interface PassPlan {
  /** The assignment change (empty when nothing changes). */
  readonly delta: AssignmentDelta;
  /** Shards that changed owner from one live executor to another. */
  readonly moves: number;
  /** Executors to forget, at the heartbeat revision seen. */
  readonly forget: readonly Versioned[];
  /** Shard requests that are answered (assigned, drained or removed). */
  readonly answered: readonly Versioned[];
  /** Executors whose expired lease lets their shards move: the commit requires them unchanged. */
  readonly unchanged: readonly Versioned[];
  /** Monotonic time at which a waiting handover may proceed by lease expiry, if any. */
  readonly wakeAtMs?: number;
  /** Replicated namespaces: what the owner-set planner achieved. */
  readonly placement?: PlacementReport;
}

const fixedKeys = new Map<number, readonly string[]>();

/** The shard keys "0".."n-1" of a fixed namespace, built once per size. */
export function fixedShardKeys(n: number): readonly string[] {
  let keys = fixedKeys.get(n);
  if (!keys) {
    keys = Array.from({ length: n }, (_, i) => String(i));
    fixedKeys.clear();
    fixedKeys.set(n, keys);
  }
  return keys;
}

/**
 * Plans a pass: stale, draining and operator-drained executors lose their shards, drained
 * shards lose their owner, finished ephemeral shards are removed, live executors of unknown
 * status keep theirs, and the load balancer places the rest.
 */
export function planPass(
  state: NamespaceState,
  shape: NamespaceShape,
  now: number,
  options: PassOptions,
): PassPlan {
  if (options.cells) {
    return planCellsPass(state, now, {
      ...options.cells,
      executorRetentionMs: options.executorRetentionMs,
    });
  }
  const eligible = [...state.executors.values()]
    .filter((e) => e.status === "ACTIVE" && state.isAlive(e, now) && !state.isExecutorDrained(e))
    .map((e) => e.executorId)
    .sort();
  const index = new Map(eligible.map((id, i) => [id, i]));

  const done = new Set<string>();
  if (shape.type === "ephemeral") {
    for (const [shard, owner] of state.owners) {
      if (state.executors.get(owner)?.reports[shard]?.status === "DONE") done.add(shard);
    }
  }
  const universe = shape.type === "fixed"
    ? fixedShardKeys(shape.shardNum ?? 0)
    : [...new Set([...state.owners.keys(), ...state.requested.keys()])];
  const kept = keptShards(state, now);
  const shards = universe.filter((s) => !state.drained.has(s) && !done.has(s) && !kept(s));

  if (options.replication) {
    const step = planOwnerSets(state, shards, eligible, {
      ...options.replication,
      maxMoves: options.maxMoves,
    });
    for (const shard of state.drained) if (state.owners.has(shard)) step.unassign.push(shard);
    const delta: AssignmentDelta = Object.keys(step.sets).length > 0
      ? { assign: step.assign, unassign: step.unassign, remove: [...done], sets: step.sets }
      : { assign: step.assign, unassign: step.unassign, remove: [...done] };
    return {
      ...finishPass(state, now, options, delta, done),
      moves: step.moves,
      placement: step.report,
    };
  }
  const guard = options.exclusive ? new HandoverGuard(state, now, options.exclusive) : undefined;
  const owners = new Int32Array(shards.length);
  const loads = new Float64Array(shards.length);
  for (const [i, shard] of shards.entries()) {
    const owner = state.owners.get(shard);
    owners[i] = owner === undefined ? -1 : index.get(owner) ?? -1;
    // A confirmed release is placed afresh (perhaps on its old owner again).
    if (guard && owner !== undefined && guard.confirmedStopped(shard, owner)) owners[i] = -1;
    const load = owner === undefined ? undefined : state.executors.get(owner)?.reports[shard]?.load;
    loads[i] = load === undefined || !(load >= 0) ? NaN : load;
  }
  const planned = options.balancer.plan(
    { shards, owners, loads, executors: eligible },
    { maxMoves: options.maxMoves },
  );

  const assign: Record<string, string[]> = {};
  const unassign: string[] = [];
  const release: string[] = [];
  const handover = guard ? new Handovers(state, guard) : undefined;
  let moves = 0;
  for (const [i, shard] of shards.entries()) {
    const target = planned[i] ?? -1;
    const current = state.owners.get(shard);
    const next = target >= 0 ? eligible[target] : undefined;
    if (handover) {
      const step = handover.step(shard, current, next);
      if (step === "release") release.push(shard), moves++;
      if (step !== "move") continue;
    } else if (next === current) continue;
    if (next === undefined) unassign.push(shard);
    else (assign[next] ??= []).push(shard);
    if ((owners[i] ?? -1) >= 0 && next !== undefined) moves++;
  }
  for (const shard of state.drained) {
    const owner = state.owners.get(shard);
    if (owner === undefined) continue;
    const step = handover ? handover.step(shard, owner, undefined) : "move";
    if (step === "release") release.push(shard);
    if (step === "move") unassign.push(shard);
  }
  const remove = [...done];
  const delta: AssignmentDelta = release.length > 0
    ? { assign, unassign, remove, release }
    : { assign, unassign, remove };
  const wakeAtMs = handover?.wakeAtMs;
  return {
    ...finishPass(state, now, options, delta, done),
    moves,
    unchanged: handover?.unchanged ?? [],
    ...(wakeAtMs === undefined ? {} : { wakeAtMs }),
  };
}

/**
 * Shards that stay where they are, out of the balancer's reach: those owned by
 * a live executor whose status this server does not know (`UNKNOWN`) and that
 * no operator drain holds. Such an executor gets nothing new (it is not
 * eligible) but keeps what it has until it is stale, the most conservative
 * reading of a status whose meaning is unknown. In a replicated namespace the
 * whole owner set of such a shard is kept. A shard already releasing is not
 * kept, so that its handover can finish.
 */
function keptShards(state: NamespaceState, now: number): (shard: string) => boolean {
  const holders = new Set<string>();
  for (const e of state.executors.values()) {
    if (e.status === "UNKNOWN" && state.isAlive(e, now) && !state.isExecutorDrained(e)) {
      holders.add(e.executorId);
    }
  }
  if (holders.size === 0) return () => false;
  return (shard) =>
    !state.releasing.has(shard) && state.ownersOf(shard).some((owner) => holders.has(owner));
}

/** The executors to forget and the requests answered once `delta` is committed. */
function finishPass(
  state: NamespaceState,
  now: number,
  options: PassOptions,
  delta: AssignmentDelta,
  done: ReadonlySet<string>,
): { delta: AssignmentDelta; forget: Versioned[]; answered: Versioned[]; unchanged: Versioned[] } {
  const { assign, unassign, remove } = delta;
  const gone = new Set([...unassign, ...remove]);
  const forget: Versioned[] = [];
  for (const e of state.executors.values()) {
    if (now - e.seenAtMs <= options.executorRetentionMs) continue;
    const keeps = [...state.shardsOf(e.executorId)].some((s) => !gone.has(s));
    if (!keeps && !assign[e.executorId]) {
      forget.push({ id: e.executorId, revision: e.heartbeatRevision });
    }
  }
  const hide = staleToHide(state, now, delta, new Set(forget.map((f) => f.id)));
  const change = Object.keys(hide).length > 0 ? { ...delta, hide } : delta;
  const assigned = new Set(Object.values(assign).flat());
  const answered: Versioned[] = [];
  for (const [shard, revision] of state.requested) {
    if (
      state.owners.has(shard) || assigned.has(shard) || state.drained.has(shard) || done.has(shard)
    ) {
      answered.push({ id: shard, revision });
    }
  }
  return { delta: change, forget, answered, unchanged: [] };
}

/** What an exclusive namespace does with a shard the balancer wants elsewhere. */
type Step = "keep" | "move" | "release" | "wait";

/** Decides each shard's step in an exclusive namespace and gathers what the commit needs. */
class Handovers {
  readonly #state: NamespaceState;
  readonly #guard: HandoverGuard;
  readonly #unchanged = new Map<string, number>();
  /** Earliest lease expiry a waiting shard depends on. */
  wakeAtMs: number | undefined;

  constructor(state: NamespaceState, guard: HandoverGuard) {
    this.#state = state;
    this.#guard = guard;
  }

  /** Executors whose expiry the plan relies on, at the heartbeat revision seen. */
  get unchanged(): Versioned[] {
    return [...this.#unchanged].map(([id, revision]) => ({ id, revision }));
  }

  /** The step for `shard`, owned by `current`, that the balancer wants on `next`. */
  step(shard: string, current: string | undefined, next: string | undefined): Step {
    const guard = this.#guard;
    const releasing = this.#state.releasing.has(shard);
    if (current === undefined) {
      if (next === undefined) return "keep";
      return guard.blocked(shard, next) ? this.#wait(shard, next) : "move";
    }
    if (next === current) {
      // Back to its owner: after a confirmed stop that is a fresh start (a new token).
      return releasing && guard.confirmedStopped(shard, current) ? "move" : "keep";
    }
    if (guard.confirmedStopped(shard, current)) {
      return next !== undefined && guard.blocked(shard, next) ? this.#wait(shard, next) : "move";
    }
    if (guard.expired(current)) {
      if (!this.#relyOnExpiry(current)) return "wait";
      return next !== undefined && guard.blocked(shard, next) ? this.#wait(shard, next) : "move";
    }
    this.#wake(guard.expiresAt(current));
    return releasing ? "wait" : "release";
  }

  #relyOnExpiry(executorId: string): boolean {
    if (this.#unchanged.has(executorId)) return true;
    if (this.#unchanged.size >= MAX_UNCHANGED_EXECUTORS) return false;
    const revision = this.#state.executors.get(executorId)?.heartbeatRevision ?? 0;
    // An executor the store no longer holds cannot be heard from again under its old record.
    if (this.#state.executors.has(executorId)) this.#unchanged.set(executorId, revision);
    return true;
  }

  #wait(shard: string, target: string): Step {
    for (const [id, executor] of this.#state.executors) {
      if (id !== target && shard in executor.reports) this.#wake(this.#guard.expiresAt(id));
    }
    return "wait";
  }

  #wake(atMs: number): void {
    if (Number.isFinite(atMs) && (this.wakeAtMs === undefined || atMs < this.wakeAtMs)) {
      this.wakeAtMs = atMs;
    }
  }
}
