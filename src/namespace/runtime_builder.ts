/**
 * How an instance makes a namespace's {@linkcode NamespaceRuntime} from its
 * definition: the policy read once, and what every runtime of the instance
 * shares (stores, clock, observer, health, where the instance can be reached,
 * the history log).
 *
 * @module
 */
import type { Config, NamespaceConfig } from "../config/mod.ts";
import type { Clock } from "../core/clock.ts";
import type { Logger } from "../core/logger.ts";
import type { StoreEvidence } from "../core/store_evidence.ts";
import type { ServiceObserver } from "../core/observer.ts";
import type { RequestLimits } from "../limits/request_limits.ts";
import { NamespaceRuntime } from "./namespace_runtime.ts";
import { namespacePolicy } from "../policy/namespace_policy.ts";
import { type LeaderStore, type Store, WARM_HANDOVER_FORMAT } from "../store/mod.ts";
import type { AdvertisedInstance } from "../core/types.ts";
import type { NamespaceHistory } from "./namespace_history.ts";

/** Longest a new leader term waits for this instance's listeners to be bound, ms. */
const ADVERTISE_WAIT_MS = 2_000;

/** What every namespace runtime of one instance shares. */
export interface RuntimeDeps {
  /** The instance's configuration (process timings, election, leader store). */
  readonly config: Config;
  /** The main store. */
  readonly store: Store;
  /** The leader store. */
  readonly leaderStore: LeaderStore;
  /** This instance's id. */
  readonly instanceId: string;
  /** Request limits. */
  readonly limits: RequestLimits;
  /** Time source. */
  readonly clock: Clock;
  /** Where to log. */
  readonly logger: Logger;
  /** Receives passes and other figures. */
  readonly observer: ServiceObserver;
  /** When the main store last answered (its pulse). */
  readonly evidence: StoreEvidence;
  /** Probed before each leader term. */
  readonly health: { probe(): Promise<unknown> };
  /** Where this instance can be reached, once its listeners are bound. */
  readonly advertisement: {
    /** Waits at most `ms` for the listeners' addresses. */
    waitFor(ms: number): Promise<unknown>;
    /** The addresses, once known. */
    get(): AdvertisedInstance | undefined;
  };
  /** The per-namespace history. */
  readonly history: NamespaceHistory;
  /** The main store's format (store/store_format.ts). @default {the newest this release reads} */
  readonly storeFormat?: number;
}

/** A function that builds a namespace's runtime from its definition. */
export function runtimeBuilder(deps: RuntimeDeps): (config: NamespaceConfig) => NamespaceRuntime {
  const { shardDistribution: sd } = deps.config;
  return (config) => {
    const policy = namespacePolicy(config, {
      process: sd.process,
      limits: deps.limits,
      maxReliedOn: deps.store.limits.maxUnchangedExecutors,
      // Release 0.1.0 misreads warm handover records: none in a store at its format.
      warmHandoverFormat: (deps.storeFormat ?? WARM_HANDOVER_FORMAT) >= WARM_HANDOVER_FORMAT,
    });
    return new NamespaceRuntime(policy, {
      store: deps.store,
      leaderStore: deps.leaderStore,
      instanceId: deps.instanceId,
      election: {
        // The embedded leader store has no leases; the value is then unused.
        electionTtlMs: sd.leaderStore?.storageParams.electionTtlMs ?? 5_000,
        leaderPeriodMs: sd.election.leaderPeriodMs,
        maxRandomDelayMs: sd.election.maxRandomDelayMs,
        failedElectionCooldownMs: sd.election.failedElectionCooldownMs,
      },
      clock: deps.clock,
      logger: deps.logger,
      observer: deps.observer,
      evidence: deps.evidence,
      // Also wait briefly for the listeners' addresses, so the claim says where we are.
      beforeTerm: async () => {
        await deps.health.probe();
        await deps.advertisement.waitFor(ADVERTISE_WAIT_MS);
      },
      advertised: () => deps.advertisement.get(),
      history: (note) => void deps.history.record(policy.name, note),
    });
  };
}
