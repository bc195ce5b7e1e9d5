/**
 * 2. Shards per namespace: 1,000,000 fixed shards over 1,000 executors. The
 * executors register while an operator drain holds them; lifting the drain
 * makes them all eligible at once, and the clock runs from there to every
 * shard owned (committed, and served by the instance) and held by the
 * executors. Then the steady state: memory, CPU, heartbeats.
 *
 * @module
 */
import { freePort } from "../../tests/support/ports.ts";
import { profileEvidence } from "../lib/cpu_profile.ts";
import {
  type Figure,
  fullOnly,
  type Suite,
  type SuiteContext,
  type SuiteOutput,
} from "../lib/result.ts";
import { InstanceCrashedError, type ShardsRun, shardsRun } from "./shards_run.ts";

/** The suite. */
export const shardsPerNamespace: Suite = {
  name: "shards",
  title: "2. Shards per namespace",
  run,
};

/** The steady window at the end of the first full run that follows RSS, ms. */
const LONG_WINDOW_MS = 600_000;

function figuresOf(ctx: SuiteContext, runs: ShardsRun[], intervalMs: number): Figure[] {
  const pick = (k: keyof ShardsRun) =>
    runs.map((r) => r[k]).filter((v): v is number => typeof v === "number");
  const growth = runs.filter((r) => r.rssLongEndMiB !== undefined).map((r) =>
    r.rssLongEndMiB! - r.rssLongStartMiB!
  );
  const longStart = pick("rssLongStartMiB");
  return [
    {
      label: "drain lifted → every shard owned, served by the instance",
      unit: "s",
      digits: 2,
      samples: pick("servedS"),
      ...fullOnly(ctx, { op: "<", value: 10, text: "< 10 s" }),
    },
    {
      label: "drain lifted → the assignment's commit, seen on an etcd watch",
      unit: "s",
      digits: 2,
      samples: pick("commitS"),
    },
    {
      label: `drain lifted → executors hold every shard once (heartbeat every ${
        intervalMs / 1000
      } s)`,
      unit: "s",
      digits: 2,
      samples: pick("heldS"),
    },
    {
      label: "service RSS, one interval after the executors held their shards",
      unit: "MiB",
      samples: pick("rssMiB"),
      ...fullOnly(ctx, { op: "<", value: 512, text: "< 512 MiB" }),
    },
    {
      label: "service RSS at the end of the steady window",
      unit: "MiB",
      samples: pick("rssSteadyEndMiB"),
    },
    { label: "service peak RSS (VmHWM)", unit: "MiB", samples: pick("peakMiB") },
    { label: "V8 heap used at the RSS reading", unit: "MiB", samples: pick("heapUsedMiB") },
    {
      label: "report wave: held → the last pass it causes",
      unit: "s",
      digits: 1,
      samples: pick("waveS"),
    },
    { label: "report wave: heartbeat p99", unit: "ms", samples: pick("waveHeartbeatP99Ms") },
    {
      label: "report wave: largest heartbeat lag",
      unit: "s",
      digits: 1,
      samples: pick("waveLagS"),
    },
    {
      label: "steady: service CPU",
      unit: "cores",
      digits: 2,
      samples: pick("steadyCores"),
      ...fullOnly(ctx, { op: "<", value: 0.25, text: "< 0.25 cores" }),
    },
    { label: "steady: rebalance passes", unit: "/s", digits: 2, samples: pick("passesPerS") },
    { label: "steady: mean pass (plan + commit)", unit: "ms", samples: pick("passMs") },
    {
      label: "steady: heartbeat p99",
      unit: "ms",
      samples: pick("heartbeatP99Ms"),
      ...fullOnly(ctx, { op: "<", value: 250, text: "< 250 ms" }),
    },
    {
      label: "steady: largest heartbeat lag (sm_heartbeat_lag_max_seconds)",
      unit: "s",
      digits: 1,
      samples: pick("lagS"),
    },
    { label: "steady: stale executors at its end", unit: "", samples: pick("stale") },
    {
      label: "a new spectator's first whole picture (stream opened → decoded)",
      unit: "s",
      digits: 2,
      samples: pick("spectatorFirstS"),
      ...fullOnly(ctx, { op: "<", value: 2, text: "< 2 s" }),
    },
    {
      label: "the same picture: stream opened → received (before the spectator decodes it)",
      unit: "s",
      digits: 2,
      samples: pick("spectatorReceivedS"),
    },
    {
      label: "one executor lost: its pass's planning",
      unit: "ms",
      samples: pick("lossPlanMs"),
    },
    { label: "one executor lost: its pass's commit", unit: "ms", samples: pick("lossCommitMs") },
    {
      label: "one executor lost: pass start → first executor answered with a moved shard",
      unit: "ms",
      samples: pick("lossFirstAnsweredMs"),
      ...fullOnly(ctx, { op: "<", value: 1_000, text: "< 1 s" }),
    },
    {
      label: "one executor lost: pass start → every moved shard held",
      unit: "ms",
      samples: pick("lossAllHeldMs"),
    },
    ...(growth.length === 0 ? [] : [
      {
        label: `RSS at the start of a ${LONG_WINDOW_MS / 60_000}-minute steady window`,
        unit: "MiB",
        samples: longStart,
      },
      {
        label: `RSS growth over ${LONG_WINDOW_MS / 60_000} minutes (end − start; largest − start)`,
        unit: "MiB",
        samples: growth,
        ...fullOnly(ctx, {
          op: "<" as const,
          value: 0.05 * (longStart[0] ?? 0),
          text: "no growth (< 5% of the start)",
        }),
      },
      {
        label: `RSS, largest over the ${LONG_WINDOW_MS / 60_000} minutes`,
        unit: "MiB",
        samples: pick("rssLongMaxMiB"),
      },
    ]),
  ];
}

async function run(ctx: SuiteContext): Promise<SuiteOutput> {
  const shards = ctx.quick ? 100_000 : 1_000_000;
  const executors = ctx.quick ? 100 : 1_000;
  const intervalMs = ctx.quick ? 1_000 : 5_000;
  const runs = ctx.quick ? 1 : 3;
  const results: ShardsRun[] = [];
  const crashes: string[] = [];
  // A crashed instance is reported and its run replaced, at most twice.
  for (let attempt = 1; results.length < runs && attempt <= runs + 2; attempt++) {
    ctx.progress(`run ${results.length + 1}/${runs}: ${shards} shards over ${executors} executors`);
    try {
      // The first full run ends with a long window that follows RSS.
      const longWindowMs = !ctx.quick && results.length === 0 ? LONG_WINDOW_MS : 0;
      results.push(await shardsRun(ctx, shards, executors, intervalMs, { longWindowMs }));
    } catch (error) {
      if (!(error instanceof InstanceCrashedError)) throw error;
      crashes.push(`Attempt ${attempt}: ${error.message}`);
      ctx.progress(error.message);
    } finally {
      await ctx.scope.close();
    }
  }
  if (results.length === 0) throw new Error(crashes.join(" "));
  const list = (k: keyof ShardsRun, digits = 0) =>
    results.map((r) => (r[k] as number).toFixed(digits)).join(", ");
  const findings = [
    ...crashes,
    `Per run: ${list("drainedCommits")} assignment commits happened while every executor was ` +
    "still under the drain (it should be 0: nothing is eligible); the instance stopped " +
    `leading the namespace ${list("leadershipLosses")} time(s) (electionTTL 5 s); V8 heap ` +
    `committed ${list("heapTotalMiB")} MiB, external memory ${list("externalMiB")} MiB at the ` +
    "RSS reading.",
  ];
  if (ctx.profile) {
    ctx.progress("profiled run (--cpu-prof, sampling heap profiler over --inspect)");
    const dir = `${ctx.artifacts}/shards-profile`;
    const profiled = await shardsRun(ctx, shards, executors, intervalMs, {
      cpuProfDir: dir,
      inspectPort: freePort(),
    });
    await ctx.scope.close();
    findings.push(
      `Hottest functions of the instance over a whole run, start to steady state (self time, ` +
        `${dir}): ${await profileEvidence(dir)}.`,
      `In the profiled run, RSS was ${profiled.rssMiB.toFixed(0)} MiB before and ` +
        `${profiled.rssAfterGcMiB?.toFixed(0)} MiB after a full GC forced over the inspector.`,
      "Live memory by allocating function (V8 sampling heap profiler, from the lifted drain to " +
        "the end of the steady window, after a full GC): " +
        (profiled.heapSites ?? []).map((h) =>
          `\`${h.where}\` ${(h.bytes / 2 ** 20).toFixed(0)} MiB`
        )
          .join(", ") +
        ".",
    );
  }
  return {
    figures: figuresOf(ctx, results, intervalMs),
    method: [
      `${shards.toLocaleString("en-US")} fixed shards, ${executors} simulated executors in 2 ` +
      `worker processes, heartbeat every ${intervalMs / 1000} s, heartbeatTTL ` +
      `${(6 * intervalMs) / 1000} s; one instance on a fresh etcd per run; ${runs} run(s).`,
      "The executors register under an operator drain by metadata selector " +
      "(`DrainExecutors`), so none is eligible; once every executor is registered, nothing is " +
      "owned and nothing has been committed for 2 s, `UndrainExecutors` makes all of them " +
      "eligible at once and the clock starts. Commit: the first change-log entry after that, " +
      "as a watch on etcd in the driver delivers it. Served: the instance's `sm_shards_owned` " +
      "(polled every 100 ms) reaches the shard count. Held: the executors' own heartbeat " +
      "answers hold every shard exactly once (— when that did not happen within 120 s).",
      "Report wave: once the executors hold their shards, each one's next heartbeat reports " +
      "them (a changed report: written, followed, and an input of the next pass). It ends " +
      "with the last rebalance pass before two heartbeat intervals without one; its heartbeat " +
      "p99 and largest lag are taken over it.",
      "RSS: `VmRSS` and `VmHWM` of the service process in `/proc/<pid>/status`, after the " +
      "report wave, and `VmRSS` again at the end of the steady window.",
      "Steady window: the next 20 s (3 s in a quick run), executors heartbeating, nothing to change: the service's " +
      "CPU from `/proc`, its passes and their mean duration from `sm_rebalance_passes_total` " +
      "and `sm_rebalance_pass_duration_seconds`, the executors' heartbeat p99, the largest " +
      "`sm_heartbeat_lag_max_seconds` seen (polled every 2 s) and `sm_executors{state=stale}`.",
      "Spectator: after the steady window, one raw `WatchNamespaceState` stream (with " +
      "`accept_deltas`) opens in a worker process; the clock runs from opening it to its " +
      "first message (the whole picture) received and decoded by protobufjs in that process, " +
      "and, apart, to that message's last byte received (before the decode).",
      "One executor lost: then one executor stops heartbeating. After the heartbeat TTL the " +
      "leader's pass moves its shards; the pass's start is its \"assignment committed\" log " +
      "line's time less the `planMs` and `commitMs` it logs, and the executors' worker " +
      "processes time the first and the last heartbeat answer that gives one of them a moved " +
      "shard (one machine, one wall clock).",
      `Memory over time (first full run only): after that, ${LONG_WINDOW_MS / 60_000} more ` +
      "minutes of steady state with RSS read every 10 s; growth is the last reading less the " +
      "first.",
      "Profiled run (full mode only, not among the samples): `--cpu-prof` and the V8 sampling " +
      "heap profiler over `--inspect`.",
      "The simulated executors encode a request once per shard set and decode an answer only " +
      "when its bytes differ from the previous one (bench/workers/executor_fleet.ts), so the " +
      "fleet takes little of the cores it shares with the instance; the instance receives the " +
      "bytes a protobuf encoder would send.",
    ],
    findings,
  };
}
