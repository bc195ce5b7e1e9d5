// deno-lint-ignore-file no-console -- the measured figures are printed for whoever runs the test
import assert from "node:assert/strict";
import { startEtcd, uniquePrefix } from "./support/etcd.ts";
import {
  gaps,
  intervals,
  type Observed,
  overlaps,
  quantile,
  running,
  tokensGrow,
  until,
} from "./support/ownership_recorder.ts";
import { startSdkProcess } from "./support/sdk_process.ts";
import { startProcess, testConfigYaml } from "./support/service.ts";

const SHARDS = 12;

Deno.test("exclusive: rebalance and drain moves never overlap; the gap is measured", async () => {
  await using etcd = await startEtcd();
  const yaml = testConfigYaml({
    endpoints: etcd.endpoints,
    prefix: uniquePrefix("ownership-moves"),
    namespaces: [{ name: "jobs", type: "fixed", shardNum: SHARDS, ownership: "exclusive" }],
    process: { heartbeatTTL: "2s", period: "500ms", rebalanceCooldown: "20ms" },
  });
  await using service = await startProcess(yaml, "instance-1");
  const options = { addresses: [service.address], namespace: "jobs", heartbeatIntervalMs: 200 };
  const observed: Observed[] = [];
  const join = async (name: string) => {
    const process = await startSdkProcess("executor", { ...options, name });
    observed.push({ name, process });
    return process;
  };
  try {
    await join("a");
    await until(() => running(intervals(observed), "a").length === SHARDS, 15_000, "a runs all");
    // Rebalance: b and c join and take their share through handovers.
    await join("b");
    await join("c");
    await until(
      () => ["a", "b", "c"].every((e) => running(intervals(observed), e).length === SHARDS / 3),
      20_000,
      "an even spread",
    );
    // Drains: the oldest executor leaves gracefully (DRAINING) and its shards move to the
    // others; a newcomer joins and takes its share (rebalance). Three rounds.
    const live = ["a", "b", "c"];
    for (const newcomer of ["d", "e", "f"]) {
      const leaver = live.shift()!;
      await observed.find((o) => o.name === leaver)!.process.kill("SIGTERM");
      await until(
        () => live.reduce((n, e) => n + running(intervals(observed), e).length, 0) === SHARDS,
        20_000,
        `${live} to run everything`,
      );
      await join(newcomer);
      live.push(newcomer);
      await until(
        () => live.every((e) => running(intervals(observed), e).length === SHARDS / 3),
        20_000,
        "an even spread again",
      );
    }
    const all = intervals(observed);
    assert.deepEqual(overlaps(all), [], "no shard ever ran on two executors at once");
    assert.ok(tokensGrow(all), "each new owner's fencing token is larger");
    const moved = gaps(all);
    assert.ok(moved.length >= 2 * SHARDS, `at least ${2 * SHARDS} moves, got ${moved.length}`);
    assert.ok(moved.every((g) => g >= 0));
    const median = quantile(moved, 0.5), p99 = quantile(moved, 0.99);
    console.log(
      `exclusive graceful move gap (stop → start), ${moved.length} moves: ` +
        `median ${median} ms, p99 ${p99} ms, max ${Math.max(...moved)} ms`,
    );
    assert.ok(p99 < 3_000, `p99 gap ${p99} ms`);
  } finally {
    await Promise.all(observed.map((o) => o.process.kill("SIGKILL")));
  }
});
