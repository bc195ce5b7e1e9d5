/**
 * 12. Key ranges (issue 43; pure code, no services yet): the range planner on
 * a simulated Zipf workload over 100 executors, exact per-slice loads and
 * Space-Saving sketches as executors will report them, one planner pass per
 * step; and the spectator's key lookups (`bench/ranges_bench.ts`).
 *
 * Per exponent, three phases of four passes: a new namespace settling, the
 * hot spot moving (every key's load handed to the key a third of the key
 * list further on), and one key jumping to 20% of all load.
 *
 * @module
 */
import { RANGE_DEFAULTS } from "../../src/config/range_settings.ts";
import { countMoves, greedyLoadBalancer } from "../../src/loadbalancer/mod.ts";
import { makeInput, roundRobin } from "../../src/loadbalancer/_fixtures.ts";
import { keyHash } from "../../src/shared/key_hash.ts";
import { executorService, type ShardStatusReport } from "../../src/wire/proto.ts";
import { maxOverMean } from "../lib/balance.ts";
import { ZipfSimulation } from "../../src/plan/ranges/_zipf_simulation.ts";
import type { PassFigures } from "../../src/plan/ranges/_zipf_simulation.ts";
import { repeatMicro } from "../lib/micro.ts";
import { median } from "../lib/stats.ts";
import { LOOKUPS_PER_ITERATION } from "../lib/micro_sizes.ts";
import type { Figure, ReportTable, Suite, SuiteContext, SuiteOutput } from "../lib/result.ts";

const EXECUTORS = 100;
const PASSES = 4;
/**
 * The passes of the 30 s: the leader passes every `process.period`
 * (1 s by default) while the loads its executors report change (each
 * heartbeat), so 30 s after a change are 30 passes.
 */
const PASSES_IN_30_S = 30;
/** The passes of the first 10 s after a change (at the same 1 s `period`). */
const PASSES_IN_10_S = 10;
const EXPONENTS = [0.8, 1.1] as const;
const PHASES = ["new namespace", "hot spot moved", "one key at 20%"] as const;
/** The drifting hour: one pass per 30 s of it. */
const DRIFT_STEPS = 120;
/** Share of the keys whose load is swapped with another key's before each drift step. */
const DRIFT_SHARE = 0.003;

/** The suite. */
export const ranges: Suite = {
  name: "ranges",
  title: "12. Key ranges",
  run,
};

/** One phase of a simulation: its name and each pass's figures. */
export interface Phase {
  readonly name: (typeof PHASES)[number];
  readonly passes: PassFigures[];
  /** GREEDY on fixed shards under the same load: max/mean after the same passes, and moves. */
  readonly greedy: { readonly maxOverMean: number; readonly moves: number };
}

/** Fixed shards of the comparison: the ranges' target of 32 slices per executor. */
export const FIXED_SHARDS = 3_200;

/**
 * A fixed namespace under the same keys: each key hashed onto one of
 * {@linkcode FIXED_SHARDS} shards (as an application hashes its keys onto
 * `shardNum` shards), placed round-robin, then balanced by GREEDY one pass
 * per step with the ranges' churn budget.
 */
class FixedShards {
  readonly #shardOf: Int32Array;
  #owners: Int32Array;

  constructor(keys: readonly string[]) {
    this.#shardOf = Int32Array.from(keys, (k) => Number(keyHash(k) % BigInt(FIXED_SHARDS)));
    this.#owners = roundRobin(FIXED_SHARDS, EXECUTORS);
  }

  /** `passes` GREEDY passes under `keyLoads`: max/mean after them and the moves made. */
  run(keyLoads: Float64Array, passes: number): { maxOverMean: number; moves: number } {
    const loads = new Float64Array(FIXED_SHARDS);
    for (let i = 0; i < keyLoads.length; i++) loads[this.#shardOf[i]!]! += keyLoads[i]!;
    const input = makeInput(FIXED_SHARDS, EXECUTORS, this.#owners, loads);
    let moves = 0;
    for (let p = 0; p < passes; p++) {
      const next = greedyLoadBalancer.plan({ ...input, owners: this.#owners }, {
        maxMoves: RANGE_DEFAULTS.churnBudget,
      });
      moves += countMoves(this.#owners, next);
      this.#owners = next;
    }
    return { maxOverMean: maxOverMean(this.#owners, loads, EXECUTORS), moves };
  }
}

/**
 * Runs the three phases over `keys` keys for exponent `s`; returns each
 * pass's figures and the owners of the 20% key's slice (also used by
 * `bench/tools/ranges_simulation.ts`).
 */
export function simulate(
  keys: number,
  s: number,
): {
  phases: Phase[];
  hotOwners: number;
  heartbeatBytes: number;
  drift: Drift;
  jump: JumpSettling;
} {
  const sim = new ZipfSimulation({ keys, s, executors: EXECUTORS, settings: RANGE_DEFAULTS });
  const fixed = new FixedShards(sim.keys);
  const run = (name: Phase["name"], afterFirst?: () => void): Phase => {
    const passes: PassFigures[] = [];
    for (let p = 0; p < PASSES; p++) {
      passes.push(sim.pass());
      if (p === 0) afterFirst?.();
    }
    return { name, passes, greedy: fixed.run(sim.loads, PASSES) };
  };
  const phases = [run("new namespace")];
  const before = Float64Array.from(sim.loads);
  const shift = Math.floor(keys / 3);
  for (let i = 0; i < keys; i++) sim.loads[(i + shift) % keys] = before[i]!;
  phases.push(run("hot spot moved"));
  const drift = driftHour(sim, s);
  const total = sim.loads.reduce((a, b) => a + b, 0);
  const jumper = keys - 1; // the coldest key
  sim.loads[jumper] = (0.2 / 0.8) * (total - sim.loads[jumper]!);
  // The 20% key's own slice: isolated and replicated by the first pass after the jump?
  const hotSlice = () =>
    sim.slices.find((x) => x.slice.end - x.slice.start === 1n && x.load > total * 0.1);
  let firstOwners = 0;
  phases.push(run("one key at 20%", () => firstOwners = hotSlice()?.owners.length ?? 0));
  // The same change, followed for the passes of 30 s (its first passes are the phase's).
  const jumpPasses = [
    ...phases.at(-1)!.passes,
    ...Array.from({ length: PASSES_IN_30_S - PASSES }, () => sim.pass()),
  ];
  const reached = jumpPasses.findIndex((p) => p.maxOverMean <= 1.1);
  const jump: JumpSettling = {
    peakIn10s: Math.max(...jumpPasses.slice(0, PASSES_IN_10_S).map((p) => p.maxOverMean)),
    passesTo110: reached < 0 ? undefined : reached + 1,
    after30s: jumpPasses.at(-1)!.maxOverMean,
    worstAfter: reached < 0
      ? jumpPasses.at(-1)!.maxOverMean
      : Math.max(...jumpPasses.slice(reached).map((p) => p.maxOverMean)),
  };
  return {
    phases,
    hotOwners: firstOwners,
    heartbeatBytes: heartbeatBytes(sim),
    drift,
    jump,
  };
}

/** How the 20% key's jump settled over the passes of 30 s. */
export interface JumpSettling {
  /** The hottest executor's load over the mean, at worst, in the passes of the first 10 s. */
  readonly peakIn10s: number;
  /** The first pass after the jump with max/mean ≤ 1.10 (1-based); undefined: none in 30 s. */
  readonly passesTo110: number | undefined;
  /** max/mean after the 30th pass. */
  readonly after30s: number;
  /** The worst max/mean from the first pass at ≤ 1.10 on (the last pass's when none got there). */
  readonly worstAfter: number;
}

/** What an hour of steadily drifting load did. */
export interface Drift {
  /** Share of the line (0 to 1) whose owner was replaced over the hour. */
  readonly keyspaceMoved: number;
  /** The worst max/mean executor load after a step. */
  readonly worstMaxOverMean: number;
  /** Median max/mean after a step. */
  readonly medianMaxOverMean: number;
}

/**
 * An hour of steady drift: before each of {@linkcode DRIFT_STEPS} passes (one
 * per 30 s), {@linkcode DRIFT_SHARE} of the keys swap their load with another
 * key's (seeded), so which keys are hot keeps changing while the total stays.
 */
function driftHour(sim: ZipfSimulation, s: number): Drift {
  let seed = Math.round(s * 1_000) + 7;
  const next = () => (seed = (Math.imul(seed, 1_103_515_245) + 12_345) >>> 0) / 2 ** 32;
  const n = sim.loads.length;
  let moved = 0;
  const ratios: number[] = [];
  for (let step = 0; step < DRIFT_STEPS; step++) {
    for (let k = 0; k < Math.max(1, Math.round(n * DRIFT_SHARE / 2)); k++) {
      const a = Math.floor(next() * n), b = Math.floor(next() * n);
      [sim.loads[a], sim.loads[b]] = [sim.loads[b]!, sim.loads[a]!];
    }
    const pass = sim.pass();
    moved += pass.keyspaceMoved;
    ratios.push(pass.maxOverMean);
  }
  return {
    keyspaceMoved: moved,
    worstMaxOverMean: Math.max(...ratios),
    medianMaxOverMean: median(ratios),
  };
}

/**
 * The largest heartbeat an executor sends at the end: its slices' reports
 * with their top keys (`sketchSize` each), encoded as the SDK sends them.
 */
function heartbeatBytes(sim: ZipfSimulation): number {
  const bySlice = new Map<string, Record<string, ShardStatusReport>>();
  for (const s of sim.slices) {
    for (const owner of s.owners) {
      const reports = bySlice.get(owner) ?? {};
      bySlice.set(owner, reports);
      reports[String(s.slice.id)] = {
        status: "SHARD_STATUS_READY",
        shardLoad: s.load / s.owners.length,
        topKeys: (s.topKeys ?? []).slice(0, RANGE_DEFAULTS.sketchSize),
      };
    }
  }
  let most = 0;
  for (const [executorId, reports] of bySlice) {
    const bytes = executorService.Heartbeat.requestSerialize({
      namespace: "sessions",
      executorId,
      status: "EXECUTOR_STATUS_ACTIVE",
      shardStatusReports: reports,
      metadata: { address: "10.0.0.5:8080" },
    }).length;
    most = Math.max(most, bytes);
  }
  return most;
}

async function run(ctx: SuiteContext): Promise<SuiteOutput> {
  const keys = ctx.quick ? 20_000 : 1_000_000;
  const figures: Figure[] = [];
  const tables: ReportTable[] = [];
  const findings: string[] = [];
  for (const s of EXPONENTS) {
    ctx.progress(`Zipf s = ${s}: ${keys.toLocaleString("en")} keys, ${EXECUTORS} executors`);
    const { phases, hotOwners, heartbeatBytes, drift, jump } = simulate(keys, s);
    for (const phase of phases) {
      const jumped = phase.name === "one key at 20%";
      figures.push({
        label: `s = ${s}, ${phase.name}: max/mean executor load after ${PASSES} passes`,
        unit: "×",
        digits: 3,
        samples: [phase.passes.at(-1)!.maxOverMean],
        // The 20% key's goal is within 30 s, judged below over the passes of 30 s.
        ...(jumped ? {} : { target: { op: "<=", value: 1.1, text: "≤ 1.10" } }),
      }, {
        label: `s = ${s}, ${phase.name}: GREEDY on ${FIXED_SHARDS.toLocaleString("en")} fixed ` +
          `shards, max/mean after ${PASSES} passes`,
        unit: "×",
        digits: 3,
        samples: [phase.greedy.maxOverMean],
      });
    }
    figures.push({
      label: `s = ${s}, one key at 20%: max/mean executor load within 30 s ` +
        `(${PASSES_IN_30_S} passes at the default 1 s period: the worst once ≤ 1.10, else the last)`,
      unit: "×",
      digits: 3,
      samples: [jump.worstAfter],
      target: { op: "<=", value: 1.1, text: "≤ 1.10 within 30 s" },
    }, {
      label:
        `s = ${s}, one key at 20%: hottest executor over the mean, at worst, in the first 10 s`,
      unit: "×",
      digits: 3,
      samples: [jump.peakIn10s],
    });
    findings.push(
      `s = ${s}: after the 20% key, max/mean first reached ≤ 1.10 at pass ${
        jump.passesTo110 ?? "none"
      } of ${PASSES_IN_30_S}; ${jump.after30s.toFixed(3)} after the last.`,
    );
    figures.push({
      label: `s = ${s}: keyspace moved over an hour of drifting load`,
      unit: "%",
      digits: 2,
      samples: [drift.keyspaceMoved * 100],
      target: { op: "<=", value: 5, text: "≤ 5%" },
    }, {
      label: `s = ${s}: max/mean during the drifting hour, median of the passes`,
      unit: "×",
      digits: 3,
      samples: [drift.medianMaxOverMean],
    }, {
      label: `s = ${s}: largest heartbeat request at the end (slices with top keys)`,
      unit: "bytes",
      samples: [heartbeatBytes],
    });
    const all = phases.flatMap((p) => p.passes);
    figures.push(
      {
        label: `s = ${s}: most keyspace moved by one pass`,
        unit: "%",
        digits: 2,
        samples: [Math.max(...all.map((p) => p.keyspaceMoved)) * 100],
      },
      {
        label: `s = ${s}: owners of the 20% key's own slice after the first pass (1 s)`,
        unit: "owners",
        samples: [hotOwners],
        target: { op: ">=", value: 2, text: "isolated and replicated" },
      },
      {
        label: `s = ${s}: planner time per pass, median`,
        unit: "ms",
        samples: [median(all.map((p) => p.planMs))],
      },
    );
    tables.push({
      caption: `Zipf s = ${s}, each pass`,
      header: ["phase", "pass", "max/mean", "slices", "per executor", "moves", "keyspace moved"],
      rows: phases.flatMap((phase) =>
        phase.passes.map((p, i) => [
          phase.name,
          String(i),
          p.maxOverMean.toFixed(3),
          String(p.slices),
          `${p.slicesPerExecutor.min}-${p.slicesPerExecutor.max}`,
          String(p.moves),
          `${(p.keyspaceMoved * 100).toFixed(2)}%`,
        ])
      ),
    }, {
      caption: `Zipf s = ${s}: ranges against GREEDY on ${
        FIXED_SHARDS.toLocaleString("en")
      } fixed shards, after each phase's ${PASSES} passes`,
      header: ["phase", "ranges max/mean", "GREEDY max/mean", "ranges moves", "GREEDY moves"],
      rows: phases.map((phase) => [
        phase.name,
        phase.passes.at(-1)!.maxOverMean.toFixed(3),
        phase.greedy.maxOverMean.toFixed(3),
        String(phase.passes.reduce((n, p) => n + p.moves, 0)),
        String(phase.greedy.moves),
      ]),
    });
    const last = all.at(-1)!;
    findings.push(
      `s = ${s}: during the drifting hour max/mean was at worst ${
        drift.worstMaxOverMean.toFixed(3)
      } after a pass.`,
    );
    findings.push(
      `s = ${s}: ${last.slices} slices at the end, ${last.slicesPerExecutor.min}-` +
        `${last.slicesPerExecutor.max} per executor (bounds ${RANGE_DEFAULTS.slicesPerExecutor.min}-` +
        `${RANGE_DEFAULTS.slicesPerExecutor.max}).`,
    );
  }

  ctx.progress("key lookups (deno bench bench/ranges_bench.ts)");
  // Only the spectator's cases: the hash comparisons (the bigint one fills the heap) stay out.
  const micro = await repeatMicro(
    "ranges_bench.ts",
    ctx.quick ? 1 : 5,
    undefined,
    "/^spectator ownerOf/",
  );
  const perSecond = (name: string) =>
    (micro.get(name) ?? []).map((ns) => LOOKUPS_PER_ITERATION / (ns / 1e9));
  // A figure per spectator case of ranges_bench.ts, labelled as the case unless told otherwise.
  const lookups = (name: string, target: boolean, label = name) =>
    figures.push({
      label,
      unit: "lookups/s",
      samples: perSecond(name),
      ...(target ? { target: { op: ">=" as const, value: 10_000_000, text: "≥ 10 M/s" } } : {}),
    });
  lookups(
    "spectator ownerOf (hash, search, the slice's owner), keys held as strings",
    true,
    "spectator ownerOf: key → slice → owner (3,200 slices), 100,000 different keys held as strings",
  );
  for (const s of EXPONENTS) {
    const requests = `spectator ownerOf, Zipf s = ${s} requests over 1M keys`;
    lookups(`${requests}, keys held as strings`, true);
    lookups(`${requests}, key string built per lookup`, false);
  }

  return {
    figures,
    tables,
    method: [
      `Simulated in process (src/plan/ranges/_zipf_simulation.ts): ${
        keys.toLocaleString("en")
      } keys \`key-N\` with load 1e6 / (N + 1)^s, ${EXECUTORS} executors in 3 zones, ` +
      "available ownership, the default `range:` settings.",
      "Each pass measures every slice's exact load and a Space-Saving sketch of its keys " +
      `(\`sketchSize\` ${RANGE_DEFAULTS.sketchSize}), as executors will report them, and runs ` +
      "`planRanges` once; max/mean is the hottest executor's true load over the mean after it.",
      "Passes, not seconds: the service will run one a `period`. The planner time excludes the " +
      "measuring.",
      "Lookups: `deno bench bench/ranges_bench.ts --filter '/^spectator ownerOf/'` (its spectator " +
      "cases only, in a process of their own), the spectator's own `ownerOf` fed a slice " +
      "map of 3,200 slices over 100 executors by a fake transport; 100,000 lookups an " +
      "iteration, of 100,000 different keys `user:N` (each once: the hash reads every key " +
      "from memory) or of a stream drawn from the Zipf law of the load (the hot keys come " +
      "back, as requests do).",
      `GREEDY comparison: the same keys and loads on ${FIXED_SHARDS} fixed shards (a key's ` +
      "shard is its XXH64 modulo the count, as an application hashes keys onto `shardNum` " +
      "shards), dealt round-robin, then `greedyLoadBalancer.plan` once a pass with the same " +
      `budget (${RANGE_DEFAULTS.churnBudget} moves), the same passes per phase.`,
      "Heartbeat: the largest `HeartbeatRequest` of any executor at the end, every slice it owns " +
      "reported with its top keys, encoded as the SDK sends it.",
      `Drifting hour (after the hot spot moved): ${DRIFT_STEPS} passes, one per 30 s; before ` +
      `each, ${DRIFT_SHARE * 100}% of the keys swap their load with another key's (seeded), so ` +
      "the hot keys keep changing while the total stays; keyspace moved is the sum of each " +
      "pass's share of the line whose owner was replaced.",
    ],
    findings,
  };
}
