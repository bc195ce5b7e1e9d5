/**
 * 9. Upstream's limit, shown: a rebalance committed the upstream way (one
 * compare and one put per executor in one etcd transaction) against a
 * default etcd, at growing executor counts; beside it, this service placing
 * every shard over the same numbers of executors on the same etcd.
 *
 * @module
 */
import { startEtcd } from "../../tests/support/etcd.ts";
import { startCluster } from "../lib/cluster.ts";
import { Fleet, ownershipProblem } from "../lib/fleet.ts";
import type { Suite, SuiteContext, SuiteOutput } from "../lib/result.ts";
import { type UpstreamAttempt, upstreamRebalance } from "../lib/upstream_txn.ts";
import { waitUntil } from "../lib/wait.ts";

/** The suite. */
export const upstreamLimit: Suite = {
  name: "upstream",
  title: "9. Upstream's limit",
  run,
};

async function ours(
  ctx: SuiteContext,
  etcd: Awaited<ReturnType<typeof startEtcd>>,
  executors: number,
): Promise<number> {
  const shardNum = 10 * executors;
  const cluster = await startCluster(ctx.scope, {
    existingEtcd: etcd,
    namespaces: [{ name: "bench", type: "fixed", shardNum }],
    process: { heartbeatTTL: "10s", period: "1s", maxMovesPerPass: shardNum },
  });
  const service = cluster.services[0]!;
  const fleet = await Fleet.start(ctx.scope, {
    addresses: [service.address],
    namespace: "bench",
    count: executors,
    intervalMs: 1_000,
  });
  const started = performance.now();
  await waitUntil(
    async () => {
      if ((await fleet.status()).held !== shardNum) return false;
      const owners = await fleet.owners();
      return ownershipProblem(owners, shardNum) === undefined &&
        [...owners.values()].every((shards) => shards.length === 10);
    },
    120_000,
    `${shardNum} shards spread over ${executors} executors`,
    250,
  );
  const ms = performance.now() - started;
  await fleet.stopBeating();
  await service.stop();
  return ms;
}

async function run(ctx: SuiteContext): Promise<SuiteOutput> {
  const runs = ctx.quick ? 1 : 3;
  const sizes = ctx.quick ? [127, 128, 129] : [64, 127, 128, 129, 256, 1_000];
  const oursSizes = ctx.quick ? [129] : [129, 1_000];
  const etcd = ctx.scope.adopt(await startEtcd());
  const endpoint = etcd.endpoints[0]!;
  const largest: number[] = [];
  const attempts: UpstreamAttempt[] = [];
  for (let r = 0; r < runs; r++) {
    ctx.progress(
      `upstream-style transactions, run ${r + 1}/${runs}: ${sizes.join(", ")} executors`,
    );
    let best = 0;
    for (const n of sizes) {
      const attempt = await upstreamRebalance(endpoint, `upstream/${r}/${n}`, n);
      if (r === 0) attempts.push(attempt);
      if (attempt.committed) best = Math.max(best, n);
    }
    largest.push(best);
  }
  const oursLargest: number[] = [];
  const placeMs = new Map<number, number[]>();
  for (let r = 0; r < runs; r++) {
    let best = 0;
    for (const n of oursSizes) {
      ctx.progress(`this service, run ${r + 1}/${runs}: ${n} executors on ${10 * n} shards`);
      const ms = await ours(ctx, etcd, n);
      placeMs.set(n, [...(placeMs.get(n) ?? []), ms]);
      best = Math.max(best, n);
    }
    oursLargest.push(best);
  }
  return {
    figures: [
      {
        label: "upstream-style commit: most executors that commit",
        unit: "executors",
        samples: largest,
        target: { op: "<=", value: 128, text: "fails past 128" },
      },
      {
        label: "this service: most executors tested, every shard placed once",
        unit: "executors",
        samples: oursLargest,
        target: { op: ">", value: 128, text: "succeeds past 128" },
      },
      ...oursSizes.map((n) => ({
        label: `this service: ${n} executors, ${10 * n} shards, start to all placed`,
        unit: "ms",
        samples: placeMs.get(n) ?? [],
      })),
    ],
    method: [
      "One etcd with default settings (`--max-txn-ops` 128) shared by both sides, distinct " +
      "key prefixes.",
      "Upstream's commit, rebuilt with `npm:etcd3`: the executors' `assigned_state` keys are " +
      "written first; then one transaction compares the leader key's mod revision (the " +
      "fencing guard) and every executor's `assigned_state` mod revision, and puts every " +
      "executor's new state — as upstream's `AssignShards` does.",
      "This service: one instance, a fixed namespace of 10 shards per executor, simulated " +
      "executors heartbeating every second from one process; success means every shard is " +
      "held by exactly one executor and every executor holds 10.",
    ],
    findings: attempts.map((a) =>
      `${a.executors} executors: ${a.compares} compares + ${a.operations} puts → ` +
      (a.committed ? "committed" : `refused: "${a.error}"`)
    ),
  };
}
