import assert from "node:assert/strict";
import {
  createSpectator,
  type PlacementChange,
  type ShardManagerError,
  Spectator,
} from "../src/client/spectator/mod.ts";
import { startEtcd, uniquePrefix } from "./support/etcd.ts";
import { eventually, runExecutors } from "./support/executors.ts";
import { connect } from "./support/grpc_clients.ts";
import { startInProcess, startProcess, testConfigYaml } from "./support/service.ts";
import {
  heldBy,
  onFixedPort,
  spectatorAgrees,
  spectatorOwners,
} from "./support/spectator_checks.ts";

const SHARDS = 24;
const fixed = [{ name: "jobs", type: "fixed", shardNum: SHARDS }];
const quick = { baseMs: 50, maxMs: 500 };

Deno.test("spectator sees the partition the executors get, and a shard move after an executor is lost", async () => {
  await using etcd = await startEtcd();
  const yaml = testConfigYaml({
    endpoints: etcd.endpoints,
    prefix: uniquePrefix("spectator partition"),
    namespaces: fixed,
  });
  const instance = await startInProcess(yaml);
  const clients = connect(instance.server.address);
  const executors = runExecutors(clients, "jobs", ["a", "b", "c"], { intervalMs: 200 });
  const spectator = createSpectator({ addresses: [instance.server.address], namespace: "jobs" });
  const changes: PlacementChange[] = [];
  const reading = (async () => {
    for await (const change of spectator.changes()) changes.push(change);
  })();
  try {
    await spectator.waitReady({ timeoutMs: 10_000 });
    await eventually(
      () =>
        executors.every((e) => e.shards.length > 0) &&
        spectatorAgrees(spectator, executors, SHARDS),
      15_000,
      "the spectator to agree with the executors",
    );
    for (let shard = 0; shard < SHARDS; shard++) {
      const owner = spectator.ownerOf(String(shard))!.executorId;
      assert.equal(spectator.addressOf(String(shard)), `${owner}.example:1234`);
    }

    const [victim, ...survivors] = executors as [typeof executors[0], ...typeof executors];
    const lost = [...victim.shards];
    const mark = spectator.placement!.version;
    await eventually(() => changes.at(-1)?.version === mark, 5_000, "the reader to catch up");
    victim.stop();
    await eventually(
      () => spectatorAgrees(spectator, survivors, SHARDS),
      15_000,
      "the spectator to see the lost executor's shards on the survivors",
    );
    const moved = new Set(
      changes.filter((c) => c.previousVersion >= mark).flatMap((c) =>
        c.moved.filter((m) => m.from === victim.id).map((m) => m.shard)
      ),
    );
    assert.deepEqual([...moved].sort(), [...lost].sort(), "changes() reported every move");
  } finally {
    for (const e of executors) e.stop();
    await spectator.close();
    await reading;
    clients.close();
    await instance.stop();
  }
});

Deno.test("spectator: a miss in an ephemeral namespace falls back to GetShardOwner", async () => {
  await using etcd = await startEtcd();
  const yaml = testConfigYaml({
    endpoints: etcd.endpoints,
    prefix: uniquePrefix("spectator ephemeral"),
    namespaces: [{ name: "entities", type: "ephemeral" }],
  });
  const instance = await startInProcess(yaml);
  const clients = connect(instance.server.address);
  const executors = runExecutors(clients, "entities", ["a", "b"], { intervalMs: 200 });
  const spectator = createSpectator({
    addresses: [instance.server.address],
    namespace: "entities",
  });
  try {
    await spectator.waitReady({ timeoutMs: 10_000 });
    await eventually(() => spectator.placement?.executors.size === 2, 10_000, "both executors");
    assert.equal(spectator.ownerOf("customer-1"), undefined);
    const owner = await spectator.owner("customer-1");
    assert.ok(owner && ["a", "b"].includes(owner.executorId), `owner ${owner?.executorId}`);
    assert.equal(spectator.ownerOf("customer-1")?.executorId, owner.executorId);
    await eventually(
      () => spectator.placement?.owners.get("customer-1")?.executorId === owner.executorId,
      10_000,
      "a snapshot with the new shard",
    );
    await eventually(
      () => heldBy(executors).get("customer-1") === owner.executorId,
      10_000,
      "the owner to be told",
    );
    const address = await spectator.address("customer-2");
    assert.match(String(address), /^[ab]\.example:1234$/);

    // An unknown namespace fails at once, not after the timeout.
    const startedAt = Date.now();
    await assert.rejects(
      new Spectator({ addresses: instance.server.address, namespace: "no-such-namespace" })
        .start({ timeoutMs: 10_000 }),
      (error: ShardManagerError) =>
        error.code === "NAMESPACE_NOT_FOUND" && error.grpcCode === 5 &&
        /^Namespace "no-such-namespace" not found at /.test(error.message),
    );
    assert.ok(Date.now() - startedAt < 2_000, `took ${Date.now() - startedAt} ms`);
  } finally {
    for (const e of executors) e.stop();
    await spectator.close();
    clients.close();
    await instance.stop();
  }
});

Deno.test("spectator keeps answering while the service is killed, reports growing staleness, and catches up after a restart", async () => {
  await using etcd = await startEtcd();
  const { yaml, address } = onFixedPort(testConfigYaml({
    endpoints: etcd.endpoints,
    prefix: uniquePrefix("spectator restart"),
    namespaces: fixed,
  }));
  let service = await startProcess(yaml, "instance-1");
  const clients = connect(address);
  const executors = runExecutors(clients, "jobs", ["a", "b", "c"], { intervalMs: 200 });
  const spectator = createSpectator({ addresses: [address], namespace: "jobs", backoff: quick });
  try {
    await spectator.waitReady({ timeoutMs: 15_000 });
    await eventually(
      () =>
        executors.every((e) => e.shards.length > 0) &&
        spectatorAgrees(spectator, executors, SHARDS),
      15_000,
      "the spectator to agree with the executors",
    );
    const before = spectatorOwners(spectator, SHARDS);

    await service.kill("SIGKILL");
    await eventually(() => !spectator.staleness().connected, 10_000, "the spectator to notice");
    const down = spectator.staleness();
    assert.ok(down.lastError !== undefined, "says why");
    await eventually(
      () => spectator.staleness().ageMs >= down.ageMs + 500,
      5_000,
      "the reported age to grow",
    );
    assert.deepEqual(spectatorOwners(spectator, SHARDS), before, "answers from the last state");

    const [, , gone] = executors as [typeof executors[0], typeof executors[0], typeof executors[0]];
    gone.stop(); // a change that happens while the service is down
    service = await startProcess(yaml, "instance-2");
    await eventually(() => spectator.staleness().connected, 15_000, "the spectator to reconnect");
    assert.equal(spectator.staleness().ageMs, 0);
    await eventually(
      () => spectatorAgrees(spectator, executors.slice(0, 2), SHARDS),
      20_000,
      "the spectator to catch up with the move",
    );
  } finally {
    for (const e of executors) e.stop();
    await spectator.close();
    clients.close();
    await service.kill("SIGKILL");
  }
});

Deno.test("spectator fails over to the other address when its instance stops", async () => {
  await using etcd = await startEtcd();
  const yaml = testConfigYaml({
    endpoints: etcd.endpoints,
    prefix: uniquePrefix("spectator failover"),
    namespaces: fixed,
  });
  const first = await startInProcess(yaml, "instance-1");
  const second = await startInProcess(yaml, "instance-2");
  const clients = connect(second.server.address);
  const executors = runExecutors(clients, "jobs", ["a", "b", "c"], { intervalMs: 200 });
  const spectator = createSpectator({
    addresses: [first.server.address, second.server.address],
    namespace: "jobs",
    backoff: quick,
    random: () => 0, // start at the first address
  });
  try {
    await spectator.waitReady({ timeoutMs: 10_000 });
    assert.equal(spectator.staleness().address, first.server.address);
    await eventually(
      () =>
        executors.every((e) => e.shards.length > 0) &&
        spectatorAgrees(spectator, executors, SHARDS),
      15_000,
      "the spectator to agree with the executors",
    );

    await first.stop();
    await eventually(
      () => spectator.staleness().address === second.server.address,
      10_000,
      "the spectator to fail over",
    );
    const [, , gone] = executors as [typeof executors[0], typeof executors[0], typeof executors[0]];
    gone.stop();
    await eventually(
      () => spectatorAgrees(spectator, executors.slice(0, 2), SHARDS),
      15_000,
      "changes to arrive through the other instance",
    );
  } finally {
    for (const e of executors) e.stop();
    await spectator.close();
    clients.close();
    await first.stop();
    await second.stop();
  }
});
