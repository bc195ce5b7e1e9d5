/**
 * Who leads each namespace, as one instance can tell: the election's winner
 * from the leader store, with its term's start and where it can be reached
 * from its claim (or, for this instance, from its own advertisement); while
 * the main store cannot be read, the leader at the last good read and since
 * when that is unknown.
 *
 * @module
 */
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
}

/** The leader of each namespace of `input.runtimes`. */
export async function listLeaders(input: LeaderListInput): Promise<LeaderView[]> {
  const lost = input.storeLostSince;
  if (lost !== undefined) {
    // The store cannot be read: say who led at the last good read, and since when unknown.
    return input.runtimes.map(({ name, view }) => {
      const claim = view.leader?.claim;
      return {
        namespace: name,
        unknownSinceMs: lost.wallMs,
        ...(claim
          ? { instanceId: claim.instanceId, term: claim.term, sinceMs: claim.sinceMs }
          : {}),
        ...reachableAt(claim),
      };
    });
  }
  return await Promise.all(input.runtimes.map(async ({ name, view }) => {
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
