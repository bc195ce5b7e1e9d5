/**
 * Feeds {@linkcode ExecutorSamples}: every interval, each namespace the
 * instance serves, each executor's owned-shard count and reported load, read
 * from the instance's cache (no store request). While the store is
 * unreachable the sample is a gap.
 *
 * @module
 */
import { type Clock, sleep, systemClock } from "../../../core/clock.ts";
import type { HealthStatus } from "../../../service/mod.ts";
import type { ExecutorStateView, NamespaceInfo } from "../../../routing/views.ts";
import type { ExecutorSamples } from "./executor_samples.ts";

/** What the sampler reads: a slice of the service (`Service` in service/mod.ts). */
export interface SampleSource {
  /** Store reachability. */
  readonly health: { readonly status: Pick<HealthStatus, "storeReachable"> };
  /** The service's routing reads. */
  readonly routing: {
    /** Namespaces served. */
    listNamespaces(): readonly Pick<NamespaceInfo, "name">[];
    /** Executors of a namespace (throws for one removed meanwhile). */
    getNamespaceState(namespace: string): readonly ExecutorStateView[];
  };
}

/** Takes one sample of every namespace of `source` at `clock`'s now. */
export function sampleOnce(source: SampleSource, samples: ExecutorSamples, clock: Clock): void {
  const atMs = clock.now();
  const reachable = source.health.status.storeReachable;
  const names = new Set<string>();
  for (const { name } of source.routing.listNamespaces()) {
    names.add(name);
    let executors;
    try {
      executors = reachable ? source.routing.getNamespaceState(name) : undefined;
    } catch {
      continue; // removed between the listing and the read
    }
    samples.record(
      name,
      atMs,
      executors?.map((e) => ({
        executorId: e.executorId,
        shardCount: e.assignedShards.length,
        load: e.totalLoad,
      })),
    );
  }
  samples.retain(names);
}

/**
 * Samples `source` into `samples` now and then every `samples.intervalMs`
 * of `clock`'s time until `signal` aborts.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { fakeClock } from "../../../core/fake_clock.ts";
 * import { ExecutorSamples } from "./executor_samples.ts";
 * import { runExecutorSampler } from "./executor_sampler.ts";
 *
 * const time = fakeClock(0);
 * const samples = new ExecutorSamples({ intervalMs: 15_000 });
 * const stop = new AbortController();
 * const running = runExecutorSampler({
 *   health: { status: { storeReachable: true } },
 *   routing: { listNamespaces: () => [{ name: "ns" }], getNamespaceState: () => [] },
 * }, samples, { clock: time.clock, signal: stop.signal });
 * await time.tick(30_000);
 * assert.deepEqual(samples.trends("ns").times, [0, 15_000, 30_000]);
 * stop.abort();
 * await running;
 * ```
 */
export async function runExecutorSampler(
  source: SampleSource,
  samples: ExecutorSamples,
  options: { readonly signal: AbortSignal; readonly clock?: Clock },
): Promise<void> {
  const clock = options.clock ?? systemClock;
  while (!options.signal.aborted) {
    sampleOnce(source, samples, clock);
    await sleep(samples.intervalMs, options.signal, clock).catch(() => {});
  }
}
