/**
 * Handover: what planned moves cost a real sharded application, measured
 * from its clients and its nodes. The sharded counter example
 * (`examples/sharded_counter/`) runs as real processes on the SDK against a
 * real service on real etcd, with clients routing through the spectator,
 * during a scale-out by 50%, a rolling replacement of every executor and the
 * drain of one zone, in an available and an exclusive namespace. Each
 * scenario runs with warm handover off (cold moves: the nodes give no
 * `prepare` hook) and on (the nodes warm a shard up while its old owner
 * serves it), side by side in one run.
 *
 * @module
 */
import type { TallySummary } from "../../examples/sharded_counter/tally.ts";
import { startCluster } from "../lib/cluster.ts";
import { Control } from "../lib/control.ts";
import { CounterFleet } from "../lib/counter_fleet.ts";
import {
  comparisonTable,
  goalFindings,
  HANDOVER_MODES,
  type HandoverMode,
  scenarioFigures,
  type ScenarioResult,
} from "../lib/handover_result.ts";
import type { Suite, SuiteContext, SuiteOutput } from "../lib/result.ts";
import { Scope } from "../lib/scope.ts";
import { sleep } from "../lib/wait.ts";
import { WorkerProcess } from "../lib/worker_process.ts";

/** The suite. */
export const handover: Suite = {
  name: "handover",
  title: "11. Handover (warm handover off and on, side by side)",
  run,
};

type Ownership = ScenarioResult["ownership"];
const OWNERSHIPS: readonly Ownership[] = ["available", "exclusive"];
const ZONES = ["a", "b", "c"];

interface Sizes {
  readonly nodes: number;
  readonly shards: number;
  readonly rate: number;
  readonly loadMs: number;
  readonly heartbeatMs: number;
}

const namespaceOf = (ownership: Ownership, mode: HandoverMode) => `counter-${ownership}-${mode}`;

async function run(ctx: SuiteContext): Promise<SuiteOutput> {
  const sizes: Sizes = ctx.quick
    ? { nodes: 2, shards: 8, rate: 50, loadMs: 300, heartbeatMs: 1_000 }
    : { nodes: 4, shards: 32, rate: 100, loadMs: 300, heartbeatMs: 1_000 };
  // Quick mode (CI's smoke run) keeps the exclusive namespace, whose moves have the most steps.
  const ownerships = ctx.quick ? OWNERSHIPS.filter((o) => o === "exclusive") : OWNERSHIPS;
  const cluster = await startCluster(ctx.scope, {
    namespaces: ownerships.flatMap((ownership) =>
      HANDOVER_MODES.map((mode) => ({
        name: namespaceOf(ownership, mode),
        type: "fixed",
        shardNum: sizes.shards,
        ...(ownership === "exclusive" ? { ownership } : {}),
      }))
    ),
  });
  const addresses = cluster.services.map((s) => s.address);
  const control = await Control.start(ctx.scope, addresses[0]!);
  const results: ScenarioResult[] = [];
  for (const ownership of ownerships) {
    for (const mode of HANDOVER_MODES) {
      ctx.progress(`${ownership} namespace, warm handover ${mode}`);
      results.push(...await scenarios(ctx, { addresses, control, ownership, mode, sizes }));
    }
  }
  return {
    figures: results.flatMap(scenarioFigures),
    tables: [comparisonTable(results)],
    method: method(sizes),
    findings: goalFindings(results),
  };
}

interface Setup {
  readonly addresses: readonly string[];
  readonly control: Control;
  readonly ownership: Ownership;
  readonly mode: HandoverMode;
  readonly sizes: Sizes;
}

/** Scale-out, rolling replacement, zone drain, one after the other on one fleet. */
async function scenarios(ctx: SuiteContext, setup: Setup): Promise<ScenarioResult[]> {
  const { sizes, ownership, mode } = setup;
  const namespace = namespaceOf(ownership, mode);
  // Nothing changed for this long: settled (shorter in quick mode, to keep CI's step short).
  const quietMs = ctx.quick ? 1_000 : 1_500;
  await using scope = new Scope();
  const fleet = new CounterFleet(scope, {
    addresses: setup.addresses,
    namespace,
    shards: sizes.shards,
    loadMs: sizes.loadMs,
    heartbeatMs: sizes.heartbeatMs,
    warmHandover: mode === "on",
  });
  let zone = 0;
  const nextZone = () => ZONES[zone++ % ZONES.length]!;
  await Promise.all(Array.from({ length: sizes.nodes }, () => fleet.start(nextZone())));
  await fleet.settle(quietMs);
  const load = scope.adopt(WorkerProcess.start("counter_load.ts", {
    addresses: setup.addresses,
    namespace,
    shards: sizes.shards,
    rate: sizes.rate,
  }, "counter-load"));
  await load.next("ready");
  await sleep(quietMs / 2);

  const measure = async (scenario: string, body: () => Promise<number[]>) => {
    ctx.progress(`  ${scenario}`);
    await load.request({ type: "reset" }, "ok");
    const from = Date.now();
    const exitMs = await body();
    await fleet.settle(quietMs);
    await sleep(500); // requests in flight finish
    const tally = tallyOf((await load.request({ type: "tally" }, "tally")).summary);
    const unservedMs = fleet.timeline.moves(from, Date.now()).map((m) => m.unservedMs);
    return { ownership, scenario, mode, tally, unservedMs, exitMs } satisfies ScenarioResult;
  };

  const out: ScenarioResult[] = [];
  const added = Math.ceil(sizes.nodes / 2);
  out.push(
    await measure(
      `scale-out by 50% (${sizes.nodes} → ${sizes.nodes + added} executors)`,
      async () => {
        await Promise.all(Array.from({ length: added }, () => fleet.start(nextZone())));
        return [];
      },
    ),
  );
  const everyone = fleet.live;
  out.push(
    await measure(`rolling replacement of all ${everyone.length} executors`, async () => {
      const exits: number[] = [];
      for (const old of everyone) {
        await fleet.start(fleet.zoneOf(old)); // the new one is up (registered) first
        exits.push(await fleet.stop(old));
        await fleet.settle(quietMs / 1.5);
      }
      return exits;
    }),
  );
  out.push(
    await measure(
      `drain of zone a (${
        fleet.live.filter((n) => fleet.zoneOf(n) === "a").length
      } of ${fleet.live.length} executors)`,
      async () => {
        const drained = fleet.drained("a");
        await setup.control.call("drainExecutors", {
          namespace,
          selector: { zone: "a" },
          reason: "handover benchmark",
          force: true,
        });
        await fleet.settle(quietMs);
        return await Promise.all(drained.map((name) => fleet.stop(name)));
      },
    ),
  );
  return out;
}

/** A tally from JSON (NaN arrives as null). */
function tallyOf(value: unknown): TallySummary {
  const raw = value as Record<keyof TallySummary, number | null>;
  const n = (x: number | null) => x ?? NaN;
  return {
    requests: n(raw.requests),
    ok: n(raw.ok),
    cold: n(raw.cold),
    failed: n(raw.failed),
    retries: n(raw.retries),
    lost: n(raw.lost),
    p50Ms: n(raw.p50Ms),
    p99Ms: n(raw.p99Ms),
    maxMs: n(raw.maxMs),
  };
}

function method(sizes: Sizes): string[] {
  return [
    "One etcd (default settings) and one service instance on loopback with the test timings " +
    "(`period` 500ms, `heartbeatTTL` 2s, `rebalanceCooldown` 50ms) and the namespaces' defaults " +
    "(GREEDY, `settleWindow` 3s); a fixed namespace of " +
    `${sizes.shards} shards per ownership (available, exclusive) and warm-handover mode.`,
    `The application is examples/sharded_counter/: each node is its own Deno process (node.ts) ` +
    `with an HTTP server and an SDK executor (heartbeat every ${sizes.heartbeatMs} ms, the ` +
    `SDK's default), whose processor loads a shard in ${sizes.loadMs} ms before serving it; ` +
    "its address and zone are in the executor's metadata. Nodes start in zones a, b, c in turn.",
    `Clients: one process with a spectator sends ${sizes.rate} increments/s (open loop, random ` +
    "keys) to the owner of each key's shard over HTTP. A request is ok when served warm at its " +
    "first attempt, cold when served by an owner still loading the shard (the answer waits for " +
    "the load), failed when an attempt reached a node not serving the shard (421), found no " +
    "owner, or could not connect; failed requests are retried (25 ms doubling to 200 ms, fresh " +
    "look-up) until served or 10 s (never served). Latency is from the first attempt to the answer.",
    `The fleet starts with ${sizes.nodes} executors; then, each measured from a settled fleet ` +
    "until it is settled again (every shard served by one node, counts at most one apart, " +
    "nothing changed for 1.5 s, 1 s in quick mode): a scale-out by 50%; a rolling replacement of every executor " +
    "(a new one in the same zone is registered, then the old one gets SIGTERM and drains: " +
    "`executor.shutdown()`; the next one waits until the fleet settles); a drain of zone a " +
    "(`DrainExecutors` with selector `zone=a`), after which its nodes get SIGTERM.",
    "Unserved time per move: for each shard that began serving on another node, the time " +
    "between the end of its last serving interval elsewhere (processor stopped) and the new " +
    "node's end of load; 0 when the old owner still served it. Times are the nodes' wall clocks " +
    "(one machine). SIGTERM to exit is measured by the driver, from the signal to the exit status.",
    "Warm handover off: the nodes give the SDK no `prepare` hook, so every move is cold (stop, " +
    "then start and load). On: `node.ts --warm-handover on`, the hook loads the shard while the " +
    "old owner serves it, and the service switches it once prepared (namespace defaults: " +
    "`prepareTimeout` 30s, `maxPreparesPerExecutor` 32).",
    "Goals of issue 40 with warm handover on: 0 failed and 0 cold in available namespaces; " +
    "unserved p99 ≤ 100 ms in exclusive ones; SIGTERM to exit within 2 × the slowest stop + " +
    "100 ms.",
  ];
}
