/**
 * Operator edits of a key-range namespace's slices: split, merge, pin and
 * unpin by hand (`smctl slice split|merge|pin|unpin`, `ChangeSlice`). Checked
 * here against the namespace's current map (every refusal names its reason),
 * then handed to the leader's next pass (`plan/slice_edits.ts`), which
 * commits the edit with its pass's change; the call resolves once this
 * instance's cache shows it.
 *
 * @module
 */
import { type Clock, timeoutSignal } from "../core/clock.ts";
import {
  InvalidArgumentError,
  NotLeaderError,
  PreconditionError,
  StoreUnavailableError,
} from "../core/errors.ts";
import type { Slice, SliceMap } from "../core/slices.ts";
import type { NamespaceRuntime } from "../namespace/namespace_runtime.ts";
import {
  applySliceEdits,
  exclusiveMergeProblem,
  type SliceEdit,
  sliceEditProblem,
} from "../plan/slice_edits.ts";
import { ownersOf } from "../plan/owner_tables.ts";
import { keyHash } from "../shared/key_hash.ts";
import type { NamespaceView } from "../state/namespace_view.ts";

/** How long an edit waits for the leader to commit it. */
export const SLICE_EDIT_TIMEOUT_MS = 10_000;

/** An edit as an operator asks for it (`ChangeSlice`'s fields). */
export type SliceChange =
  | {
    readonly kind: "split";
    readonly sliceId: number;
    /** The first point of the right part; absent: `atKey`'s point, or the middle. */
    readonly at?: bigint;
    /** Cut where this key's point is. */
    readonly atKey?: string;
    /** Leave both parts to the planner. @default {false} */
    readonly unpinned?: boolean;
  }
  | {
    readonly kind: "merge";
    readonly sliceId: number;
    readonly withId: number;
    /** Leave the merged slice to the planner. @default {false} */
    readonly unpinned?: boolean;
  }
  | { readonly kind: "pin" | "unpin"; readonly sliceId: number };

/** A slice after an edit, as the answer lists it. */
export interface ChangedSliceView {
  /** The slice (id, range, generation). */
  readonly slice: Slice;
  /** Owners, primary first. */
  readonly owners: readonly string[];
  /** Pinned by an operator. */
  readonly pinned: boolean;
}

/** Splits, merges, pins and unpins slices by hand. */
export class SliceOperations {
  readonly #lookup: (namespace: string) => NamespaceRuntime;
  readonly #clock: Clock;

  /** Finds runtimes with `lookup` (throws `NamespaceNotFoundError` for an unknown one). */
  constructor(lookup: (namespace: string) => NamespaceRuntime, clock: Clock) {
    this.#lookup = lookup;
    this.#clock = clock;
  }

  /**
   * Makes `change` (or, with `dryRun`, says what it would make): resolves
   * with the slices it made or touched, in line order. Refuses a namespace
   * that is not `type: range` or has no slices yet, an unknown slice, a point
   * outside the slice, and slices that are not neighbours. Only the leader
   * makes edits: another instance answers `NotLeaderError` naming it.
   */
  async change(
    namespace: string,
    change: SliceChange,
    signal?: AbortSignal,
    options: { readonly dryRun?: boolean } = {},
  ): Promise<readonly ChangedSliceView[]> {
    const runtime = this.#lookup(namespace);
    if (runtime.policy.placement.kind !== "ranges") {
      throw new PreconditionError(
        namespace,
        `Namespace ${JSON.stringify(namespace)} is not a key-range namespace (type: range)`,
      );
    }
    const state = runtime.cache.state;
    const map = state.sliceMap();
    if (map === undefined) {
      throw new PreconditionError(
        namespace,
        `Namespace ${JSON.stringify(namespace)} has no slices yet (its leader cuts them when ` +
          "the first executor heartbeats)",
      );
    }
    const edit = editOf(map, change);
    const problem = sliceEditProblem(map, edit);
    if (problem !== undefined) throw new InvalidArgumentError(fieldOf(change, problem), problem);
    if (runtime.policy.ownership.mode === "exclusive") {
      const refused = exclusiveMergeProblem(edit, state.tables());
      if (refused !== undefined) throw new PreconditionError(namespace, refused);
    }
    if (options.dryRun) {
      const after = applySliceEdits(map, state.slicePins(), [edit]);
      return slicesTouched(state, map, after.map, after.pins, edit);
    }
    if (!runtime.leading) {
      const claim = state.leader?.claim;
      throw new NotLeaderError(namespace, claim?.instanceId, claim?.grpcAddress);
    }
    runtime.sliceEdits.add(edit);
    runtime.requestPass();
    const timeout = timeoutSignal(SLICE_EDIT_TIMEOUT_MS, this.#clock);
    try {
      await runtime.cache.waitUntil(
        () => made(state, edit),
        signal ? AbortSignal.any([signal, timeout.signal]) : timeout.signal,
      );
    } catch {
      throw new StoreUnavailableError(
        `The ${change.kind} of slice ${change.sliceId} in namespace ${
          JSON.stringify(namespace)
        } was not committed within ${SLICE_EDIT_TIMEOUT_MS / 1000}s (leadership may have ` +
          "changed, or the slices changed meanwhile); check with smctl slice list and retry",
      );
    } finally {
      runtime.sliceEdits.settle(edit);
      timeout.clear();
    }
    return slicesTouched(state, map, state.sliceMap()!, state.slicePins(), edit);
  }
}

/** The edit `change` asks for on `map` (a split's point chosen here, so that it can be waited for). */
function editOf(map: SliceMap, change: SliceChange): SliceEdit {
  const { sliceId } = change;
  switch (change.kind) {
    case "pin":
    case "unpin":
      return { kind: "pin", sliceId, pinned: change.kind === "pin" };
    case "merge":
      return { kind: "merge", sliceId, withId: change.withId, pin: change.unpinned !== true };
    case "split": {
      const slice = map.find(sliceId);
      const middle = slice === undefined ? 0n : slice.start + (slice.end - slice.start) / 2n;
      const at = change.at ?? (change.atKey === undefined ? middle : keyHash(change.atKey));
      if (slice !== undefined && change.at === undefined && slice.end - slice.start < 2n) {
        throw new InvalidArgumentError(
          "shard_key",
          `slice ${sliceId} holds a single point and cannot be split`,
        );
      }
      return { kind: "split", sliceId, at, pin: change.unpinned !== true };
    }
  }
}

function fieldOf(change: SliceChange, problem: string): string {
  if (change.kind === "split" && problem.includes("point")) {
    return change.at === undefined ? "split_at_key" : "split_at";
  }
  if (change.kind === "merge" && !problem.includes(`slice ${change.sliceId}`)) {
    return "merge_with_shard_key";
  }
  return "shard_key";
}

/** Whether the cache shows `edit` committed. */
function made(view: NamespaceView, edit: SliceEdit): boolean {
  const map = view.sliceMap();
  if (map === undefined) return false;
  switch (edit.kind) {
    case "pin":
      return view.slicePins().has(edit.sliceId) === edit.pinned;
    case "split":
      return map.slices[map.indexOfPoint(edit.at)]!.start === edit.at;
    case "merge":
      return map.find(edit.sliceId) === undefined || map.find(edit.withId) === undefined;
  }
}

/**
 * The slices of `after` that `edit` made or touched, in line order, with
 * their owners in `view` (a part not placed yet: the owners of the slice of
 * `before` that holds its first point) and whether `pins` holds them.
 */
function slicesTouched(
  view: NamespaceView,
  before: SliceMap,
  after: SliceMap,
  pins: ReadonlySet<number>,
  edit: SliceEdit,
): ChangedSliceView[] {
  let ids: number[];
  if (edit.kind === "split") {
    const right = after.slices[after.indexOfPoint(edit.at)]!;
    const left = edit.at > 0n ? after.slices[after.indexOfPoint(edit.at - 1n)]! : right;
    ids = left === right ? [right.id] : [left.id, right.id];
  } else {
    ids = [edit.sliceId, ...(edit.kind === "merge" ? [edit.withId] : [])];
  }
  const tables = view.tables();
  return ids.map((id) => after.find(id)).filter((s): s is Slice => s !== undefined)
    .sort((a, b) => (a.start < b.start ? -1 : 1))
    .map((slice) => {
      const owners = ownersOf(tables, String(slice.id));
      const from = before.slices[before.indexOfPoint(slice.start)]!;
      return {
        slice,
        owners: owners.length > 0 ? owners : ownersOf(tables, String(from.id)),
        pinned: pins.has(slice.id),
      };
    });
}
