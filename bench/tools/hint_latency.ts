// deno-lint-ignore-file no-console -- a measurement prints its figures
/**
 * How long an executor takes to hear of a change to its assignment, with and
 * without assignment hints (`WatchExecutorAssignment`). For each trial: a
 * fresh etcd prefix, one service instance in this process, two SDK executors
 * A and B (heartbeat interval 1 s, processors that start and stop at once) on
 * a fixed namespace of 8 shards, 4 each; then either
 *
 * - `drain`: an operator drain of A (`DrainExecutors`, forced): the time from
 *   sending it to A's last processor stopping and to B running all 8; or
 * - `shutdown`: `A.shutdown()` (as on SIGTERM): the time it takes, and the
 *   time from calling it to B running all 8 (available and exclusive).
 *
 * Run: `deno run -A bench/tools/hint_latency.ts [trials]` (default 5). Prints
 * the median and the largest of each figure, hints off and on. Not part of
 * `deno task bench`; BENCHMARKS.md ("Assignment hints") has its figures.
 *
 * @module
 */
import { Executor } from "../../src/client/executor/mod.ts";
import { startEtcd, uniquePrefix } from "../../tests/support/etcd.ts";
import { eventually } from "../../tests/support/executors.ts";
import { call, connect } from "../../tests/support/grpc_clients.ts";
import { startInProcess, testConfigYaml } from "../../tests/support/service.ts";

const trials = Number(Deno.args[0] ?? 5);
const INTERVAL_MS = 1_000;
const SHARDS = 8;

type Scenario = "drain" | "shutdown" | "shutdown-exclusive";

function executor(address: string, id: string, hints: boolean) {
  const running = new Set<string>();
  let lastStop = 0;
  let lastStart = 0;
  const ex = new Executor({
    addresses: address,
    namespace: "ns",
    executorId: id,
    heartbeatIntervalMs: INTERVAL_MS,
    assignmentHints: hints,
    logger: false,
    processor: (ctx) => {
      running.add(ctx.shardKey);
      lastStart = performance.now();
      return {
        stop: () => {
          running.delete(ctx.shardKey);
          lastStop = performance.now();
        },
      };
    },
  });
  return { ex, running, lastStop: () => lastStop, lastStart: () => lastStart };
}

async function trial(
  etcdEndpoints: readonly string[],
  scenario: Scenario,
  hints: boolean,
): Promise<{ a: number; b: number }> {
  const instance = await startInProcess(testConfigYaml({
    endpoints: etcdEndpoints,
    prefix: uniquePrefix("hint-latency"),
    namespaces: [{
      name: "ns",
      type: "fixed",
      shardNum: SHARDS,
      ...(scenario === "shutdown-exclusive" ? { ownership: "exclusive" } : {}),
    }],
  }));
  const address = instance.server.address;
  const clients = connect(address);
  const a = executor(address, "a", hints);
  const b = executor(address, "b", hints);
  try {
    await a.ex.start();
    await b.ex.start();
    await eventually(
      () => a.running.size === SHARDS / 2 && b.running.size === SHARDS / 2,
      30_000,
      "balanced",
    );
    // Start at a random point of the heartbeat cycle, as a real drain or SIGTERM would.
    await new Promise((resolve) => setTimeout(resolve, 1_500 + Math.random() * INTERVAL_MS));
    const t0 = performance.now();
    let aMs: number;
    if (scenario === "drain") {
      await call(clients.api, "drainExecutors", {
        namespace: "ns",
        executorId: "a",
        reason: "measure",
        force: true,
      });
      await eventually(() => a.running.size === 0, 10_000, "A stopped");
      aMs = a.lastStop() - t0;
    } else {
      await a.ex.shutdown();
      aMs = performance.now() - t0;
    }
    await eventually(() => b.running.size === SHARDS, 10_000, "B runs all");
    return { a: aMs, b: b.lastStart() - t0 };
  } finally {
    await a.ex.shutdown();
    await b.ex.shutdown();
    clients.close();
    await instance.stop();
  }
}

const stats = (xs: number[]) => {
  const sorted = [...xs].sort((x, y) => x - y);
  const median = sorted[Math.floor(sorted.length / 2)]!;
  return `median ${Math.round(median)} ms, max ${Math.round(sorted.at(-1)!)} ms`;
};

await using etcd = await startEtcd();
for (const scenario of ["drain", "shutdown", "shutdown-exclusive"] as const) {
  for (const hints of [false, true]) {
    const as: number[] = [];
    const bs: number[] = [];
    for (let i = 0; i < trials; i++) {
      const { a, b } = await trial(etcd.endpoints, scenario, hints);
      as.push(a);
      bs.push(b);
    }
    const what = scenario === "drain" ? "drain → A's last processor stopped" : "shutdown() took";
    console.log(
      `${scenario.padEnd(18)} hints ${hints ? "on " : "off"}: ${what}: ${stats(as)}; ` +
        `→ B runs all ${SHARDS}: ${stats(bs)}`,
    );
  }
}
