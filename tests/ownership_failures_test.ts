// deno-lint-ignore-file no-console -- the measured figures are printed for whoever runs the test
import assert from "node:assert/strict";
import { leaseMarginMs } from "../src/plan/handover_guard.ts";
import { startEtcd, uniquePrefix } from "./support/etcd.ts";
import {
  intervals,
  type Observed,
  overlaps,
  running,
  tokensGrow,
  until,
} from "./support/ownership_recorder.ts";
import { startSdkProcess } from "./support/sdk_process.ts";
import { startProcess, testConfigYaml } from "./support/service.ts";
import { call, connect } from "./support/grpc_clients.ts";
import type { ListLeadersResponse__Output } from "../src/wire/proto.ts";

const SHARDS = 6;
const LEASE = 3_000;
const INTERVAL = 200;
const PERIOD = 500;

function config(endpoints: readonly string[], name: string): string {
  return testConfigYaml({
    endpoints,
    prefix: uniquePrefix(name),
    namespaces: [{
      name: "jobs",
      type: "fixed",
      shardNum: SHARDS,
      ownership: "exclusive",
      ownershipLease: `${LEASE}ms`,
    }],
    process: { heartbeatTTL: "2s", period: `${PERIOD}ms`, rebalanceCooldown: "20ms" },
  });
}

/** A loopback TCP proxy to `target` that the test can cut (existing and new connections hang). */
function tcpProxy(target: string) {
  const [hostname, port] = [target.slice(0, target.lastIndexOf(":")), target.split(":").pop()!];
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const conns = new Set<Deno.Conn>();
  let cut = false;
  const pipe = async (from: Deno.Conn, to: Deno.Conn) => {
    try {
      for await (const chunk of from.readable) {
        if (cut) break;
        const writer = to.writable.getWriter();
        await writer.write(chunk);
        writer.releaseLock();
      }
    } catch { /* closed */ }
  };
  const serving = (async () => {
    for await (const conn of listener) {
      conns.add(conn);
      if (cut) continue; // accepted, never answered: calls time out
      const upstream = await Deno.connect({ hostname, port: Number(port) }).catch(() => undefined);
      if (!upstream) continue;
      conns.add(upstream);
      void pipe(conn, upstream);
      void pipe(upstream, conn);
    }
  })();
  return {
    address: `127.0.0.1:${(listener.addr as Deno.NetAddr).port}`,
    /** From now on nothing passes. */
    cut() {
      cut = true;
    },
    async close() {
      cut = true;
      listener.close();
      for (const c of conns) {
        try {
          c.close();
        } catch { /* closed */ }
      }
      await serving.catch(() => {});
    },
  };
}

Deno.test("exclusive: a SIGKILLed executor's shards move only after its lease, within the bound", async () => {
  await using etcd = await startEtcd();
  await using service = await startProcess(config(etcd.endpoints, "own-kill"), "instance-1");
  const options = {
    addresses: [service.address],
    namespace: "jobs",
    heartbeatIntervalMs: INTERVAL,
  };
  const observed: Observed[] = [];
  try {
    for (const name of ["a", "b"]) {
      observed.push({ name, process: await startSdkProcess("executor", { ...options, name }) });
    }
    await until(
      () => ["a", "b"].every((e) => running(intervals(observed), e).length === SHARDS / 2),
      20_000,
      "an even spread",
    );
    const victim = observed[0]!;
    const lost = running(intervals(observed), "a");
    const before = Date.now();
    await victim.process.kill("SIGKILL");
    victim.killedAt = Date.now();
    await until(
      () => running(intervals(observed), "b").length === SHARDS,
      LEASE + 10_000,
      "b to run everything",
    );
    const all = intervals(observed);
    assert.deepEqual(overlaps(all), []);
    assert.ok(tokensGrow(all));
    const starts = all.filter((i) => i.executor === "b" && lost.includes(i.shard))
      .map((i) => i.start - before);
    const first = Math.min(...starts), last = Math.max(...starts);
    // a's last heartbeat was sent at most one interval (+ jitter, + its call) before the kill.
    assert.ok(first >= LEASE - 2 * INTERVAL, `moved ${first} ms after the kill, lease ${LEASE} ms`);
    // + one pass, one heartbeat of b, and slack for a loaded machine.
    const bound = LEASE + leaseMarginMs(LEASE) + INTERVAL + 2_000;
    assert.ok(last <= bound, `moved ${last} ms after the kill, bound ${bound} ms`);
    console.log(`SIGKILL: shards started elsewhere ${first}..${last} ms after the kill`);
  } finally {
    await Promise.all(observed.map((o) => o.process.kill("SIGKILL")));
  }
});

Deno.test("exclusive: an executor cut off from the service stops its shards before anyone starts them", async () => {
  await using etcd = await startEtcd();
  await using service = await startProcess(config(etcd.endpoints, "own-cut"), "instance-1");
  const proxy = tcpProxy(service.address);
  const observed: Observed[] = [];
  try {
    const common = { namespace: "jobs", heartbeatIntervalMs: INTERVAL };
    observed.push({
      name: "a",
      process: await startSdkProcess("executor", {
        ...common,
        addresses: [proxy.address],
        name: "a",
      }),
    });
    await until(() => running(intervals(observed), "a").length === SHARDS, 20_000, "a runs all");
    observed.push({
      name: "b",
      process: await startSdkProcess("executor", {
        ...common,
        addresses: [service.address],
        name: "b",
      }),
    });
    await until(
      () => ["a", "b"].every((e) => running(intervals(observed), e).length === SHARDS / 2),
      20_000,
      "an even spread",
    );
    const cutAt = Date.now();
    proxy.cut();
    await until(
      () => running(intervals(observed), "b").length === SHARDS,
      LEASE + 10_000,
      "b to run everything",
    );
    const all = intervals(observed);
    assert.deepEqual(overlaps(all), [], "a stopped before b started");
    const stops = all.filter((i) =>
      i.executor === "a" && Number.isFinite(i.stop) && i.stop > cutAt
    );
    assert.equal(stops.length, SHARDS / 2, "a stopped its shards by itself");
    const selfStop = Math.max(...stops.map((i) => i.stop)) - cutAt;
    assert.ok(selfStop <= LEASE + 500, `a stopped ${selfStop} ms after the cut`);
    const taken = stops.map((stop) =>
      all.find((i) => i.executor === "b" && i.shard === stop.shard && i.start > stop.stop)!.start -
      stop.stop
    );
    console.log(
      `cut off: a stopped its shards ${selfStop} ms after the cut (lease ${LEASE} ms); ` +
        `b started them ${Math.min(...taken)}..${Math.max(...taken)} ms after a stopped them`,
    );
  } finally {
    await Promise.all(observed.map((o) => o.process.kill("SIGKILL")));
    await proxy.close();
  }
});

Deno.test("exclusive: a leader SIGKILLed mid-handover leaves the release to its successor", async () => {
  await using etcd = await startEtcd();
  const yaml = config(etcd.endpoints, "own-failover");
  const services = [
    await startProcess(yaml, "instance-1"),
    await startProcess(yaml, "instance-2"),
  ];
  const addresses = services.map((s) => s.address);
  const observed: Observed[] = [];
  const clients = connect(addresses[0]!);
  try {
    const common = { addresses, namespace: "jobs", heartbeatIntervalMs: INTERVAL };
    observed.push({
      name: "a",
      // Slow stops keep the handover open long enough to kill the leader in the middle.
      process: await startSdkProcess("executor", { ...common, name: "a", stopDelayMs: 2_000 }),
    });
    await until(() => running(intervals(observed), "a").length === SHARDS, 20_000, "a runs all");
    const leaders = await call<unknown, ListLeadersResponse__Output>(
      clients.api,
      "listLeaders",
      {},
    );
    const leaderId = leaders.leaders.find((l) => l.namespace === "jobs")?.instanceId;
    const leader = services.find((s) => s.instanceId === leaderId)!;
    assert.ok(leader, `a leader among ${leaders.leaders.map((l) => l.instanceId)}`);
    observed.push({
      name: "b",
      process: await startSdkProcess("executor", { ...common, name: "b" }),
    });
    // The release is committed and a is stopping: kill the leader now.
    await until(
      () => observed[0]!.process.events.some((e) => e.event === "stopping"),
      10_000,
      "a to start stopping a released shard",
    );
    await leader.kill("SIGKILL");
    await until(
      () => ["a", "b"].every((e) => running(intervals(observed), e).length === SHARDS / 2),
      20_000,
      "the successor to finish the handover",
    );
    const all = intervals(observed);
    assert.deepEqual(overlaps(all), []);
    assert.ok(tokensGrow(all));
  } finally {
    clients.close();
    await Promise.all(observed.map((o) => o.process.kill("SIGKILL")));
    await Promise.all(services.map((s) => s.kill("SIGKILL")));
  }
});
