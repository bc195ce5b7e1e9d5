// deno-lint-ignore-file no-console -- each pause's figures are printed for whoever reads the log
/**
 * Issue 42: "a 3-10 s etcd pause moved every shard of a namespace off
 * executors that kept heartbeating". On the chaos cluster (3 etcd members,
 * 3 service processes, 3 SDK executor processes that record every heartbeat
 * and write through their fencing tokens, a spectator), every etcd member is
 * paused (SIGSTOP) at once, for 3 s and then for 8 s, at a random point of
 * the pass cycle. The chaos checker then judges the whole recording: no
 * needless move (a shard taken from an executor whose heartbeats were
 * answered), no overlap in the exclusive namespace, every shard back within
 * the bound (the pause counts as an outage), and the fenced store accepted
 * no stale write and lost no acknowledged one.
 */
import assert from "node:assert/strict";
import { reassignmentBoundMs } from "./chaos/bounds.ts";
import { check } from "./chaos/checker.ts";
import { ChaosCluster } from "./chaos/cluster.ts";
import { CHAOS_BOUND_TIMINGS, chaosNamespaces } from "./chaos/config.ts";
import { fencingAtEnd, HEARTBEAT_WINDOW_MS } from "./chaos/moves_and_fencing.ts";
import { Recorder } from "./chaos/recorder.ts";

const PAUSES_S = [3, 8];
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

Deno.test({
  name: "pausing all of etcd for 3 s and 8 s moves no shard off executors that keep heartbeating",
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
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
    let paused = false;
    try {
      await settle("every shard running at the start");
      // Let the start-up placement and balancing finish: only moves after it are judged.
      await sleep(3_000);
      const from = Date.now();
      for (const seconds of PAUSES_S) {
        await sleep(Math.random() * CHAOS_BOUND_TIMINGS.periodMs);
        recorder.add({
          type: "fault",
          at: Date.now(),
          kind: "etcd-pause",
          target: "all",
          phase: "inject",
        });
        recorder.add({ type: "quorum", at: Date.now(), available: false });
        paused = true;
        await Promise.all(cluster.etcd.members.map((m) => m.kill("SIGSTOP")));
        await sleep(seconds * 1_000);
        await Promise.all(cluster.etcd.members.map((m) => m.kill("SIGCONT")));
        paused = false;
        recorder.add({ type: "quorum", at: Date.now(), available: true });
        recorder.add({
          type: "fault",
          at: Date.now(),
          kind: "etcd-pause",
          target: "all",
          phase: "heal",
        });
        // Long enough for a loss the leader wrongly planned to land and show.
        await sleep(5_000);
        await settle(`every shard running after a ${seconds} s pause`);
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
      console.log(
        `etcd pauses of ${PAUSES_S.join(" and ")} s: ${heartbeats.length} heartbeats ` +
          `(${heartbeats.filter((e) => e.type === "heartbeat" && !e.ok).length} failed), ` +
          `${result.needlessMoves.length} needless moves, ${fencing.writes} fenced writes ` +
          `(${fencing.rejected} refused), events in ${dir}/events.jsonl`,
      );
      assert.ok(heartbeats.length > 0 && fencing.writes > 0, "nothing recorded to judge");
      assert.deepEqual([...result.violations, ...fencing.violations], []);
      await Deno.remove(dir, { recursive: true });
    } finally {
      if (paused) await Promise.all(cluster.etcd.members.map((m) => m.kill("SIGCONT")));
      await cluster.close();
      recorder.close();
    }
  },
});
