/**
 * Who leads each namespace, as one instance can tell: the election's winner
 * from the leader store, with its term's start and where it can be reached
 * from its claim (or, for this instance, from its own advertisement); while
 * the main store cannot be read, the leader at the last good read and since
 * when that is unknown. The election's record is read from the store: when
 * it does not answer within {@linkcode LEADER_READ_BOUND_MS} (a store stall
 * shorter than the second after which the instance calls it unreachable),
 * the answer comes from the instance's own view as well, so the command
 * never hangs on a stalled store.
 *
 * @module
 */
import { type Clock, sleep, systemClock } from "../core/clock.ts";
import type { AdvertisedInstance } from "../core/types.ts";
import type { NamespaceRuntime } from "../namespace/namespace_runtime.ts";
import type { LeaderView } from "../routing/mod.ts";
import type { LeaderStore } from "../store/mod.ts";

/** What {@linkcode listLeaders} reads. */
export interface LeaderListInput {
  /** The namespaces, in the order to answer. */
  readonly runtimes: readonly Pick<NamespaceRuntime, "name" | "view">[];
  /** The election's record. */
  readonly leaderStore: Pick<LeaderStore, "leader">;
  /** This instance's id. */
  readonly instanceId: string;
  /** Where this instance can be reached, once known. */
  readonly advertised: AdvertisedInstance | undefined;
  /** While the main store cannot be read: its last good read (wall clock in `wallMs`). */
  readonly storeLostSince: { readonly wallMs: number } | undefined;
  /**
   * The last good read of the main store (wall clock, ms), for an answer from
   * the view when the election's record is not read in time.
   * @default {the time of the call}
   */
  readonly lastGoodReadMs?: () => number | undefined;
  /** Whose time bounds the read of the election's record. @default {systemClock} */
  readonly clock?: Clock;
  /** How long the election's record may take, ms. @default {LEADER_READ_BOUND_MS} */
  readonly boundMs?: number;
}

/** How long `listLeaders` waits for the election's record before it answers from the view, ms. */
export const LEADER_READ_BOUND_MS = 500;

/** The leader of each namespace of `input.runtimes`. */
export async function listLeaders(input: LeaderListInput): Promise<LeaderView[]> {
  const lost = input.storeLostSince;
  if (lost !== undefined) return fromView(input, lost.wallMs);
  const clock = input.clock ?? systemClock;
  const timeUp = new AbortController();
  const answer = await Promise.race([
    fromStore(input),
    sleep(input.boundMs ?? LEADER_READ_BOUND_MS, timeUp.signal, clock).then(() => undefined),
  ]).finally(() => timeUp.abort());
  if (answer !== undefined) return answer;
  // The store is stalled (not yet called unreachable): answer from the view.
  return fromView(input, input.lastGoodReadMs?.() ?? clock.now());
}

/** Who led each namespace at the last good read, and since when that is unknown. */
function fromView(input: LeaderListInput, unknownSinceMs: number): LeaderView[] {
  return input.runtimes.map(({ name, view }) => {
    const claim = view.leader?.claim;
    return {
      namespace: name,
      unknownSinceMs,
      ...(claim ? { instanceId: claim.instanceId, term: claim.term, sinceMs: claim.sinceMs } : {}),
      ...reachableAt(claim),
    };
  });
}

/** The election's winner of each namespace, from the leader store. */
function fromStore(input: LeaderListInput): Promise<LeaderView[]> {
  return Promise.all(input.runtimes.map(async ({ name, view }) => {
    const elected = await input.leaderStore.leader(name);
    if (!elected) return { namespace: name };
    const claim = view.leader?.claim;
    const current = claim?.term === elected.term && claim.instanceId === elected.instanceId
      ? claim
      : undefined;
    const where = elected.instanceId === input.instanceId ? input.advertised : current;
    return {
      namespace: name,
      instanceId: elected.instanceId,
      term: elected.term,
      ...(current === undefined ? {} : { sinceMs: current.sinceMs }),
      ...reachableAt(where),
    };
  }));
}

/** The name and addresses `where` gives, each only when set. */
function reachableAt(where: Partial<AdvertisedInstance> | undefined): Partial<AdvertisedInstance> {
  return {
    ...(where?.instanceName ? { instanceName: where.instanceName } : {}),
    ...(where?.grpcAddress ? { grpcAddress: where.grpcAddress } : {}),
    ...(where?.httpAddress ? { httpAddress: where.httpAddress } : {}),
  };
}
