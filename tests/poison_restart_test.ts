/**
 * A poison shard whose processor kills its process, on executors that a
 * supervisor restarts under the same id before they go stale (issue 41: "owners
 * that ... restart within a short time of receiving the shard"), against real
 * etcd and gRPC. Each simulated executor sends an `incarnation` with its
 * heartbeats; when an answer gives it the poison shard it "dies" and comes
 * back 1.2 s later (well within the 2 s TTL) with a new incarnation and no
 * reports. The leader counts each restart against the shard, moves the shard
 * off the executor that restarted with it, and quarantines it after 3; no
 * executor ever goes stale, and every other shard stays owned.
 *
 * Before incarnations were sent and counted, nothing here was a failure: the
 * executors never went stale and never reported a failed start, and the
 * shard stayed on its first owner, killing it again and again.
 */
import assert from "node:assert/strict";
import { startEtcd, uniquePrefix } from "./support/etcd.ts";
import { eventually } from "./support/executors.ts";
import { type Clients, connect, heartbeat } from "./support/grpc_clients.ts";
import { historyOf } from "./support/history.ts";
import { startInProcess, testConfigYaml } from "./support/service.ts";
import type { ShardStatusReport } from "../src/wire/proto.ts";

const POISON = "3";
const SHARDS = 12;
const IDS = Array.from({ length: 6 }, (_, i) => `e${i}`);
const RESTART_MS = 1_200;

/** An executor that dies whenever it is given the poison shard and is restarted under its id. */
class RestartingExecutor {
  readonly id: string;
  life = 1;
  restarts = 0;
  shards: string[] = [];
  #stopped = false;
  readonly #done: Promise<void>;

  constructor(clients: Clients, id: string) {
    this.id = id;
    this.#done = this.#run(clients);
  }

  async #run(clients: Clients): Promise<void> {
    let reports: Record<string, ShardStatusReport> = {};
    while (!this.#stopped) {
      try {
        const answer = await heartbeat(clients, {
          namespace: "ns",
          executorId: this.id,
          status: "EXECUTOR_STATUS_ACTIVE",
          shardStatusReports: reports,
          metadata: {},
          incarnation: `${this.id}-${this.life}`,
        });
        const assigned = Object.keys(answer.shardAssignments ?? {});
        if (assigned.includes(POISON)) {
          // Its processor kills the process at start; a supervisor restarts it.
          this.restarts++;
          this.shards = [];
          reports = {};
          await new Promise((r) => setTimeout(r, RESTART_MS));
          this.life++;
          continue;
        }
        this.shards = assigned;
        reports = Object.fromEntries(
          assigned.map((
            k,
          ): [string, ShardStatusReport] => [k, { status: "SHARD_STATUS_READY", shardLoad: 0 }]),
        );
      } catch {
        // the instance is starting or stopping: try again
      }
      await new Promise((r) => setTimeout(r, 200));
    }
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    await this.#done;
  }
}

Deno.test("executors restarted under the same id by a poison shard get it quarantined after 3", async () => {
  await using etcd = await startEtcd();
  const instance = await startInProcess(
    testConfigYaml({
      endpoints: etcd.endpoints,
      prefix: uniquePrefix("poison-restart"),
      namespaces: [{ name: "ns", type: "fixed", shardNum: SHARDS, settleWindow: "0s" }],
      process: { heartbeatTTL: "2s", period: "500ms" },
    }),
    "sm-1",
  );
  const clients = connect(instance.server.address);
  const executors = IDS.map((id) => new RestartingExecutor(clients, id));
  try {
    await eventually(
      () => instance.manager.operations.quarantinedShards("ns").includes(POISON),
      45_000,
      () => `shard ${POISON} quarantined (restarts: ${executors.map((e) => e.restarts).join("/")})`,
    );
    const restarted = executors.filter((e) => e.restarts > 0).map((e) => e.id);
    assert.ok(restarted.length <= 3, `restarted by it before the quarantine: ${restarted}`);
    const [event] = await historyOf(instance.manager.history, "ns", "shards_quarantined");
    assert.match(event?.text ?? "", new RegExp(`^shard ${POISON} quarantined: 3 executors failed`));
    // Nobody went stale; every other shard is owned, and the poison one by nobody.
    const state = instance.manager.routing.getNamespaceState("ns");
    assert.ok(state.every((e) => e.alive), "no executor went stale");
    await eventually(
      () => new Set(executors.flatMap((e) => e.shards)).size === SHARDS - 1,
      10_000,
      "every other shard owned",
    );
    assert.ok(!executors.some((e) => e.shards.includes(POISON)));
  } finally {
    await Promise.all(executors.map((e) => e.stop()));
    clients.close();
    await instance.stop();
  }
});
