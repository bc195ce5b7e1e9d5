/**
 * Scenario runs of the chaos harness (`deno task chaos --scenario NAME`):
 * one named failure instead of the random fault schedule, with its own
 * figures.
 *
 * - `poison-exit`: the processor of one shard (`chaos-a/3`) exits its
 *   process at every start. Goal: the leader quarantines it after at most 3
 *   executors died of it, and every other shard of both namespaces runs.
 * - `poison-throw`: the same shard's start always throws; no process dies.
 *   Goal: quarantined after at most 3 executors failed with it.
 *
 * @module
 */
import { call, connect } from "../support/grpc_clients.ts";
import type { GetDrainedShardsResponse__Output } from "../../src/wire/proto.ts";
import { ChaosCluster } from "./cluster.ts";
import { AVAILABLE_NAMESPACE, chaosNamespaces } from "./config.ts";
import { Recorder } from "./recorder.ts";

/** The scenarios `--scenario` accepts. */
export const SCENARIOS = ["poison-exit", "poison-throw"] as const;

/** One scenario's name. */
export type Scenario = typeof SCENARIOS[number];

/** What a scenario run found. */
export interface ScenarioReport {
  readonly scenario: Scenario;
  readonly executors: number;
  readonly shards: number;
  /** `namespace/shard` of the poison shard. */
  readonly poison: string;
  /** Time from the first poison hit to the quarantine (ms), null when never quarantined. */
  readonly quarantinedAfterMs: number | null;
  /** Distinct executors that failed with the poison shard before its quarantine. */
  readonly executorsFailed: number;
  /** Processes that exited because of it (poison-exit). */
  readonly processDeaths: number;
  /** Poison hits after the quarantine (should be 0 once the executors heard of it). */
  readonly hitsAfterQuarantine: number;
  /** Shards quarantined, as `namespace/shard`: only the poison one is allowed. */
  readonly quarantined: readonly string[];
  /** Other shards with no running processor at the end. */
  readonly unownedAtEnd: readonly string[];
  /** Time until every other shard ran again after the quarantine (ms), null if never. */
  readonly settledAfterMs: number | null;
  readonly passed: boolean;
  readonly outDir: string;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function quarantinedShards(address: string, namespace: string): Promise<string[]> {
  const clients = connect(address);
  try {
    const answer = await call<unknown, GetDrainedShardsResponse__Output>(
      clients.api,
      "getDrainedShards",
      { namespace },
      5_000,
    );
    return [...(answer.quarantinedShardKeys ?? [])];
  } finally {
    clients.close();
  }
}

/** Runs `scenario` once with `executors` executor processes. */
export async function runScenario(
  scenario: Scenario,
  options: { readonly shards?: number; readonly outDir?: string; log?: (line: string) => void },
): Promise<ScenarioReport> {
  const shards = options.shards ?? 8;
  const executors = 5;
  const log = options.log ?? (() => {});
  const outDir = options.outDir ?? await Deno.makeTempDir({ prefix: `chaos-${scenario}-` });
  await Deno.mkdir(outDir, { recursive: true });
  const namespaces = chaosNamespaces({ exclusive: true, shards });
  const poison = {
    namespace: AVAILABLE_NAMESPACE,
    shard: String(Math.min(3, shards - 1)),
    mode: scenario === "poison-exit" ? "exit" as const : "throw" as const,
  };
  const poisonKey = `${poison.namespace}/${poison.shard}`;
  const recorder = new Recorder(`${outDir}/events.jsonl`);
  log(`chaos scenario ${scenario}: ${executors} executors, poison shard ${poisonKey}`);
  const cluster = await ChaosCluster.start({
    namespaces,
    recorder,
    dir: outDir,
    executors,
    poison,
  });
  let quarantinedAt: number | null = null;
  let quarantined: string[] = [];
  let settledAfterMs: number | null = null;
  let unownedAtEnd: string[] = [];
  const others = new Set([poisonKey]);
  try {
    const deadline = Date.now() + 120_000;
    while (Date.now() < deadline && quarantinedAt === null) {
      await sleep(250);
      try {
        const found = await quarantinedShards(cluster.serviceAddresses[0]!, poison.namespace);
        if (found.includes(poison.shard)) quarantinedAt = Date.now();
      } catch { /* the instance may be busy starting: ask again */ }
    }
    log(quarantinedAt === null ? "  never quarantined" : `  quarantined ${poisonKey}`);
    const t0 = Date.now();
    while (Date.now() - t0 < 30_000) {
      if (recorder.unowned(namespaces, others).length === 0) {
        settledAfterMs = Date.now() - t0;
        break;
      }
      await sleep(100);
    }
    // Watch a while longer: no more hits, nothing else quarantined.
    await sleep(5_000);
    for (const ns of namespaces) {
      const keys = await quarantinedShards(cluster.serviceAddresses[0]!, ns.name);
      quarantined.push(...keys.map((k) => `${ns.name}/${k}`));
    }
    quarantined = quarantined.sort();
    // Before the shutdown, which stops every processor.
    unownedAtEnd = recorder.unowned(namespaces, others);
  } finally {
    await cluster.close().catch(() => {});
    recorder.close();
  }
  const first = recorder.poisonHits[0]?.at;
  const before = recorder.poisonHits.filter((h) => quarantinedAt === null || h.at <= quarantinedAt);
  const after = recorder.poisonHits.length - before.length;
  const executorsFailed = new Set(before.map((h) => h.executor)).size;
  const report: ScenarioReport = {
    scenario,
    executors,
    shards,
    poison: poisonKey,
    quarantinedAfterMs: quarantinedAt === null || first === undefined
      ? null
      : quarantinedAt - first,
    executorsFailed,
    processDeaths: recorder.crashes.length,
    hitsAfterQuarantine: after,
    quarantined,
    unownedAtEnd,
    settledAfterMs,
    passed: quarantinedAt !== null && executorsFailed <= 3 &&
      quarantined.length === 1 && quarantined[0] === poisonKey && unownedAtEnd.length === 0,
    outDir,
  };
  await Deno.writeTextFile(`${outDir}/results.json`, JSON.stringify(report, null, 2) + "\n");
  return report;
}
