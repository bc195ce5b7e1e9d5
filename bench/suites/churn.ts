/**
 * Churn: how often planned operations move shards, counted from the
 * executors' own heartbeat answers (every time a shard appears on an
 * executor that did not have it). Cold starts, a rolling replacement of
 * executors, a rolling restart of the service, scale-out and scale-in, and a
 * steady fleet with noisy loads; plus GREEDY's balance quality with and
 * without the load hysteresis.
 *
 * @module
 */
import {
  makeInput,
  roundRobin,
  seededRandom,
  zipfLoads,
} from "../../src/loadbalancer/_fixtures.ts";
import { countMoves, greedyLoadBalancer } from "../../src/loadbalancer/mod.ts";
import { maxOverMean } from "../lib/balance.ts";
import { ChurnFleet, ids } from "../lib/churn_driver.ts";
import { startCluster } from "../lib/cluster.ts";
import type { Figure, Suite, SuiteContext, SuiteOutput } from "../lib/result.ts";
import { Scope } from "../lib/scope.ts";
import { sleep, waitUntil } from "../lib/wait.ts";

const SHARDS = 10_000;
const NAMESPACE = "churn";
const QUIET_MS = 8_000;
const SETTLE_TIMEOUT_MS = 240_000;

/** The suite. */
export const churn: Suite = { name: "churn", title: "10. Churn of planned operations", run };

const ratio = (label: string, samples: number[], goal?: number): Figure => ({
  label,
  unit: "×",
  digits: 2,
  samples,
  ...(goal === undefined ? {} : { target: { op: "<=", value: goal, text: `≤ ${goal}` } }),
});

/** The cold-start wait of the runs that turn it off (the default is 30s). */
const COLD_START_WAIT = "0s";

/** The service's defaults, the cold-start wait included. */
async function cluster(scope: Scope, instances: number, namespace: Record<string, string> = {}) {
  return await startCluster(scope, {
    namespaces: [{ name: NAMESPACE, type: "fixed", shardNum: SHARDS, ...namespace }],
    instances,
    serviceColdStartWait: true,
  });
}

/** A first deploy; `wait` sets the namespace's `coldStartWait`. */
async function coldStart(
  ctx: SuiteContext,
  executors: number,
  overS: number,
  wait?: string,
): Promise<Figure[]> {
  await using scope = new Scope();
  const c = await cluster(scope, 1, wait === undefined ? {} : { coldStartWait: wait });
  const fleet = await ChurnFleet.start(scope, c.services.map((s) => s.address), NAMESPACE);
  const waiting = wait === undefined ? "" : `, coldStartWait ${wait}`;
  ctx.progress(`cold start: ${executors} executors over ${overS} s${waiting}`);
  const started = performance.now();
  await fleet.join(ids("e", executors), overS * 1_000);
  // The quiet period that ends a scenario starts once the last executor has joined.
  let allOwnedAt = NaN;
  while (performance.now() - started < overS * 1_000 + 1_000) {
    if (Number.isNaN(allOwnedAt) && (await fleet.counts()).unique === SHARDS) {
      allOwnedAt = performance.now() - started;
    }
    await sleep(100);
  }
  const settled = await fleet.settle(SHARDS, QUIET_MS, SETTLE_TIMEOUT_MS);
  const counts = settled.counts;
  const allOwnedMs = Number.isNaN(allOwnedAt)
    ? performance.now() - started - settled.elapsedMs + settled.allOwnedMs
    : allOwnedAt;
  const name = `cold start, ${executors} executors joining over ${overS} s${waiting}`;
  return [
    // The goal is the defaults'; the run with the wait off is there to compare.
    ratio(`${name}: placements per shard`, [counts.gained / SHARDS], wait ? undefined : 1.1),
    {
      label: `${name}: time until every shard is owned`,
      unit: "s",
      digits: 1,
      samples: [allOwnedMs / 1000],
    },
  ];
}

/** Rolling replacement, service restart, scale-out, scale-in, then the steady fleet. */
async function fleetScenarios(ctx: SuiteContext): Promise<Figure[]> {
  await using scope = new Scope();
  const c = await cluster(scope, 3);
  const fleet = await ChurnFleet.start(scope, c.services.map((s) => s.address), NAMESPACE);
  const figures: Figure[] = [];
  let live = ids("e", 200);
  ctx.progress("fleet of 200 executors: starting");
  await fleet.join(live, 5_000);
  await sleep(6_000);
  await fleet.settle(SHARDS, QUIET_MS, SETTLE_TIMEOUT_MS);

  // Rolling replacement: start the new one, then the old one drains and stops.
  const replaced = ctx.quick ? 3 : 20;
  ctx.progress(`rolling replacement of ${replaced} executors`);
  let before = (await fleet.counts()).gained;
  let held = 0;
  for (let i = 0; i < replaced; i++) {
    const old = live[i]!;
    held += (await fleet.counts()).heldBy[old] ?? 0;
    await fleet.join([`n-${i}`]);
    await sleep(1_500);
    await fleet.drain([old]);
    await waitUntil(
      async () => ((await fleet.counts()).heldBy[old] ?? 0) === 0,
      60_000,
      `${old} drained`,
      100,
    );
    await fleet.leave([old]);
  }
  live = [...live.slice(replaced), ...ids("n", replaced)];
  let settled = await fleet.settle(SHARDS, QUIET_MS, SETTLE_TIMEOUT_MS);
  figures.push(ratio(
    `rolling replacement of ${replaced} of 200, one at a time: moves / shards they held`,
    [(settled.counts.gained - before) / Math.max(1, held)],
    1.2,
  ));

  // Rolling restart of the three instances (SIGTERM: leaders resign), same addresses; one in
  // quick mode.
  const restarts = ctx.quick ? 1 : 3;
  const restartLabel = `rolling restart of ${restarts} service instance${
    restarts === 1 ? "" : "s"
  }`;
  ctx.progress(restartLabel);
  before = (await fleet.counts()).gained;
  let minUnique = SHARDS;
  for (let i = 0; i < restarts; i++) {
    const service = c.services[i]!;
    await service.stop("SIGTERM");
    c.services[i] = await c.startInstance(service.instanceId, { grpcAddress: service.address });
    c.services.pop();
    const end = performance.now() + 4_000;
    while (performance.now() < end) {
      minUnique = Math.min(minUnique, (await fleet.counts()).unique);
      await sleep(100);
    }
  }
  settled = await fleet.settle(SHARDS, QUIET_MS, SETTLE_TIMEOUT_MS);
  figures.push(
    {
      label: `${restartLabel}: moves`,
      unit: "moves",
      samples: [settled.counts.gained - before],
      target: { op: "<=", value: 0, text: "0" },
    },
    {
      label: `${restartLabel}: fewest shards owned`,
      unit: "shards",
      samples: [Math.min(minUnique, settled.minUnique)],
    },
  );

  // Scale-out by 10%: 20 executors join; each needs floor(10,000 / 220) shards at least.
  ctx.progress("scale-out by 10%");
  before = (await fleet.counts()).gained;
  const added = ids("s", 20);
  await fleet.join(added, 1_000);
  await sleep(1_000);
  settled = await fleet.settle(SHARDS, QUIET_MS, SETTLE_TIMEOUT_MS);
  const leastOut = added.length * Math.floor(SHARDS / (live.length + added.length));
  figures.push(
    ratio("scale-out 200 → 220: moves / least needed", [
      (settled.counts.gained - before) / leastOut,
    ], 1.2),
  );
  live = [...live, ...added];

  // Scale-in by 10%: 20 executors drain together, then leave.
  ctx.progress("scale-in by 10%");
  const leaving = live.slice(0, 20);
  const counts = await fleet.counts();
  before = counts.gained;
  const leastIn = leaving.reduce((n, id) => n + (counts.heldBy[id] ?? 0), 0);
  await fleet.drain(leaving);
  await waitUntil(
    async () => {
      const now = await fleet.counts();
      return leaving.every((id) => (now.heldBy[id] ?? 0) === 0);
    },
    60_000,
    "the 20 drained",
    200,
  );
  await fleet.leave(leaving);
  live = live.slice(20);
  settled = await fleet.settle(SHARDS, QUIET_MS, SETTLE_TIMEOUT_MS);
  figures.push(
    ratio(
      "scale-in 220 → 200: moves / least needed",
      [(settled.counts.gained - before) / leastIn],
      1.2,
    ),
  );

  // Steady fleet, loads 1 ± 10% per report.
  const steadyS = ctx.quick ? 10 : 300;
  ctx.progress(`steady fleet with noisy loads for ${steadyS} s`);
  await fleet.noise(true);
  before = (await fleet.counts()).gained;
  await sleep(steadyS * 1_000);
  figures.push({
    label: `steady 200 executors, loads ±10% per report, ${steadyS} s: balancing moves`,
    unit: "moves",
    samples: [(await fleet.counts()).gained - before],
    target: { op: "<=", value: 0, text: "0" },
  });
  return figures;
}

/** GREEDY max/mean on Zipf loads from a count-balanced start, with and without hysteresis. */
function balanceQuality(): Figure[] {
  const figures: Figure[] = [];
  for (
    const [shards, executors, s] of [[10_000, 100, 0.5], [100_000, 1_000, 0.3], [
      100_000,
      10,
      1,
    ]] as const
  ) {
    const loads = zipfLoads(shards, s, seededRandom(1));
    const input = makeInput(shards, executors, roundRobin(shards, executors), loads);
    for (const minImprovement of [0, 0.1]) {
      let owners = input.owners;
      let unfinished = false;
      const budget = shards / 100;
      for (let pass = 0; pass < 1_000; pass++) {
        // As a leader's passes do: a run cut by the budget goes on past the hysteresis. A
        // plain object: code without the option (main before issue 15) ignores it.
        const options = { maxMoves: budget, minImprovement: unfinished ? 0 : minImprovement };
        const next = greedyLoadBalancer.plan({ ...input, owners }, options);
        const moved = countMoves(owners, next);
        if (moved === 0) break;
        unfinished = moved >= budget / 2;
        owners = next;
      }
      figures.push({
        label: `GREEDY max/mean, ${
          shards / 1000
        }k shards × ${executors}, Zipf s=${s}, minImprovement ${minImprovement}`,
        unit: "×",
        digits: 3,
        samples: [maxOverMean(owners, loads, executors)],
      });
    }
  }
  return figures;
}

async function run(ctx: SuiteContext): Promise<SuiteOutput> {
  // Quick mode (CI's smoke run, which checks that the suite works, not its figures) keeps one
  // cold start (the default settling), of 100 executors over 3 s, and a shorter steady run.
  const colds: [number, number][] = ctx.quick
    ? [[100, 3]]
    : [[200, 5], [200, 10], [1_000, 5], [1_000, 10]];
  const figures: Figure[] = [];
  for (const [executors, overS] of colds) figures.push(...await coldStart(ctx, executors, overS));
  // The comparison with placement at once is left out of quick mode.
  for (const [executors, overS] of ctx.quick ? [] : colds) {
    figures.push(...await coldStart(ctx, executors, overS, COLD_START_WAIT));
  }
  figures.push(...await fleetScenarios(ctx));
  figures.push(...balanceQuality());
  return {
    figures,
    method: [
      "One etcd (default settings) and service processes on loopback with the test timings " +
      "(`period` 500ms, `heartbeatTTL` 2s, `rebalanceCooldown` 50ms) and the namespace's defaults; " +
      `one fixed namespace of ${SHARDS.toLocaleString("en")} shards; executors simulated in one ` +
      "worker process (bench/workers/churn_fleet.ts), heartbeating every 1 s (±10%).",
      "A move is counted each time an executor's heartbeat answer carries a shard its previous " +
      "answer did not; a scenario ends when every shard is held and nothing was gained for " +
      `${QUIET_MS / 1000} s.`,
      "Rolling replacement: the new executor starts, 1.5 s later the old one reports DRAINING, " +
      "and leaves once its answers are empty. Restart: each instance gets SIGTERM and starts " +
      "again on the same address; executors fail over to another instance meanwhile.",
      "Cold starts (a first deploy: a namespace that never had an owner) run twice: with the " +
      "defaults (`coldStartWait` 30s: placement waits until no executor has joined for the " +
      `settling window, 3 s by default, at most 30 s), and with \`coldStartWait: ` +
      `${COLD_START_WAIT}\` (off: unowned shards placed at once, the default before issue 40).`,
      "Scale-out: 20 executors join over 1 s (least needed: 20 × ⌊10,000 / 220⌋). Scale-in: 20 " +
      "drain together (least needed: the shards they held).",
    ],
    findings: [],
  };
}
