// deno-lint-ignore-file no-console -- each pause's figures are printed for whoever reads the log
/**
 * Issue 42: "a 3-10 s etcd pause moved every shard of a namespace off
 * executors that kept heartbeating". On the chaos cluster (3 etcd members,
 * 3 service processes, 3 SDK executor processes that record every heartbeat
 * and write through their fencing tokens), etcd is paused (SIGSTOP) at a
 * random point of the pass cycle: every member at once for 3 s and then 8 s,
 * or one member at a time for 8 s each while the other two keep the quorum
 * (then at most 30% of the heartbeats may fail). The chaos checker judges the whole
 * recording: no needless move (a shard taken from an executor whose
 * heartbeats were answered), no overlap in the exclusive namespace, every
 * shard back within the bound (a pause of every member counts as an outage),
 * and the fenced store accepted no stale write and lost no acknowledged one.
 */
import assert from "node:assert/strict";
import { reassignmentBoundMs } from "./chaos/bounds.ts";
import { check } from "./chaos/checker.ts";
import { ChaosCluster } from "./chaos/cluster.ts";
import { CHAOS_BOUND_TIMINGS, chaosNamespaces } from "./chaos/config.ts";
import { fencingAtEnd, HEARTBEAT_WINDOW_MS } from "./chaos/moves_and_fencing.ts";
import { Recorder } from "./chaos/recorder.ts";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** One pause: which etcd members (indexes) are SIGSTOPped, for how long. */
interface Pause {
  readonly members: readonly number[];
  readonly seconds: number;
}

/**
 * Starts the chaos cluster, waits until every shard runs, applies `pauses`
 * one after another (each at a random point of the pass cycle, followed by
 * 5 s for any wrongly planned loss to land), and checks the recording.
 */
async function pauseRun(pauses: readonly Pause[], maxFailedShare = 1): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "chaos-etcd-pause-" });
  const recorder = new Recorder(`${dir}/events.jsonl`);
  const namespaces = chaosNamespaces({ exclusive: true, shards: 6 });
  const boundMs = reassignmentBoundMs({
    ...CHAOS_BOUND_TIMINGS,
    ownershipLeaseMs: CHAOS_BOUND_TIMINGS.heartbeatTTLMs,
  });
  const cluster = await ChaosCluster.start({ namespaces, recorder, dir, spectators: 0 });
  const settle = async (what: string) => {
    const deadline = Date.now() + 60_000;
    while (recorder.unowned(namespaces, new Set()).length > 0) {
      assert.ok(Date.now() < deadline, `${what}: ${recorder.unowned(namespaces, new Set())}`);
      await sleep(100);
    }
  };
  const paused = new Set<number>();
  try {
    await settle("every shard running at the start");
    // Let the start-up placement and balancing finish: only moves after it are judged.
    await sleep(3_000);
    const from = Date.now();
    for (const { members, seconds } of pauses) {
      const all = members.length === cluster.etcd.members.length;
      const target = members.map((i) => cluster.etcd.members[i]!.name).join("+");
      const mark = (phase: "inject" | "heal") =>
        recorder.add({ type: "fault", at: Date.now(), kind: "etcd-pause", target, phase });
      await sleep(Math.random() * CHAOS_BOUND_TIMINGS.periodMs);
      mark("inject");
      // Every member paused: no quorum, an outage. One member: the others keep the quorum.
      if (all) recorder.add({ type: "quorum", at: Date.now(), available: false });
      for (const i of members) paused.add(i);
      await Promise.all(members.map((i) => cluster.etcd.members[i]!.kill("SIGSTOP")));
      await sleep(seconds * 1_000);
      await Promise.all(members.map((i) => cluster.etcd.members[i]!.kill("SIGCONT")));
      paused.clear();
      if (all) recorder.add({ type: "quorum", at: Date.now(), available: true });
      mark("heal");
      await sleep(5_000);
      await settle(`every shard running after a ${seconds} s pause of ${target}`);
    }
    const until = Date.now();
    const result = check(recorder.events, {
      namespaces,
      boundMs,
      from,
      until,
      heartbeatWindowMs: HEARTBEAT_WINDOW_MS,
    });
    const errors: string[] = [];
    const fencing = await fencingAtEnd(cluster, recorder.events, errors);
    assert.ok(fencing, errors.join("\n"));
    const heartbeats = recorder.events.filter((e) => e.type === "heartbeat" && e.at >= from);
    const what = pauses.map((p) => `${p.seconds} s of ${p.members.length} member(s)`).join(", ");
    console.log(
      `etcd pauses (${what}): ${heartbeats.length} heartbeats ` +
        `(${heartbeats.filter((e) => e.type === "heartbeat" && !e.ok).length} failed), ` +
        `${result.needlessMoves.length} needless moves, takes ${JSON.stringify(result.takes)}, ` +
        `${fencing.writes} fenced writes (${fencing.rejected} refused), ` +
        `events in ${dir}/events.jsonl`,
    );
    assert.ok(heartbeats.length > 0 && fencing.writes > 0, "nothing recorded to judge");
    const failed = heartbeats.filter((e) => e.type === "heartbeat" && !e.ok).length;
    assert.ok(
      failed <= maxFailedShare * heartbeats.length,
      `${failed} of ${heartbeats.length} heartbeats failed (at most ${maxFailedShare * 100}%)`,
    );
    assert.deepEqual([...result.violations, ...fencing.violations], []);
    await Deno.remove(dir, { recursive: true }); // kept when a check failed, for a post-mortem
  } finally {
    await Promise.all([...paused].map((i) => cluster.etcd.members[i]!.kill("SIGCONT")));
    await cluster.close();
    recorder.close();
  }
}

Deno.test({
  name: "pausing all of etcd for 3 s and 8 s moves no shard off executors that keep heartbeating",
  sanitizeOps: false,
  sanitizeResources: false,
  fn: () => pauseRun([{ members: [0, 1, 2], seconds: 3 }, { members: [0, 1, 2], seconds: 8 }]),
});

// A frozen member while the other two keep the quorum (docs/chaos.md, Findings): before the
// store client passed over members that stop answering (src/store/etcd/member_rest.ts), it
// stalled every instance (38-46% of heartbeats failed, leaderships lost) and in 1 run of 4 the
// leader then moved shards off executors whose heartbeats were answered. Now 6-13% fail: the
// writes already sent to the member when it froze, and the first call after each rest.
Deno.test({
  name:
    "pausing one etcd member at a time for 8 s moves no shard off executors that keep heartbeating",
  sanitizeOps: false,
  sanitizeResources: false,
  fn: () => pauseRun([0, 1, 2].map((i) => ({ members: [i], seconds: 8 })), 0.3),
});
