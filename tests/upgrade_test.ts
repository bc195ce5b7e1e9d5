// deno-lint-ignore-file no-console -- the steps' durations and counts are printed for whoever runs the test
/**
 * Upgrades under load (issue 42): three instances of the previous release
 * (the commit CHANGELOG.md names, run from a git worktree) serve executors
 * and a spectator; each is replaced in turn by this release, then one is
 * rolled back to the previous release, with leadership rotating every few
 * seconds so that both releases lead in turn. Throughout: no shard changes
 * owner, no shard that must be owned is ever unowned, no routing request to a
 * running instance is refused, and the operator's data (a drained shard, an
 * executor drain, a namespace created through the API) survives. The store
 * stays at format 1 and holds no record release 0.1.0 misreads (no warm
 * handover records), as docs/operations.md ("Upgrades and rollbacks") says.
 */
import assert from "node:assert/strict";
import { Etcd3 } from "etcd3";
import { createSpectator } from "../src/client/spectator/mod.ts";
import type {
  GetDrainedShardsResponse__Output,
  GetNamespaceDefinitionResponse__Output,
  GetShardOwnerResponse__Output,
  ListExecutorDrainsResponse__Output,
  ListNamespaceEventsResponse__Output,
} from "../src/wire/proto.ts";
import { startEtcd, uniquePrefix } from "./support/etcd.ts";
import { eventually, runExecutors } from "./support/executors.ts";
import { call, type Clients, connect } from "./support/grpc_clients.ts";
import { checkoutPreviousRelease } from "./support/previous_release.ts";
import { type ServiceProcess, startProcess, testConfigYaml } from "./support/service.ts";
import { onFixedPort, spectatorOwners } from "./support/spectator_checks.ts";

const NS = "orders";
const SHARDS = 16;
const DRAINED = "15";
const EXECUTORS = ["e1", "e2", "e3", "e4"];

/** One instance's place: a fixed gRPC address, and what runs there now. */
interface Slot {
  readonly yaml: string;
  readonly address: string;
  readonly clients: Clients;
  process?: ServiceProcess;
  release: "previous" | "current";
  up: boolean;
}

Deno.test("upgrade from the previous release and roll one instance back: nothing moves, nothing is lost", async () => {
  const began = performance.now();
  await using release = await checkoutPreviousRelease();
  await using etcd = await startEtcd();
  const prefix = uniquePrefix("upgrade");
  const base = testConfigYaml({
    endpoints: etcd.endpoints,
    prefix,
    // Only settings release 0.1.0 knows: its configuration schema is strict.
    namespaces: [{ name: NS, type: "fixed", shardNum: SHARDS }],
    serviceColdStartWait: true,
    // Leadership rotates every few seconds, so each release leads in turn.
    election: { leaderPeriod: "3s" },
    process: { heartbeatTTL: "3s" },
  });
  const slots: Slot[] = [0, 1, 2].map(() => {
    const { yaml, address } = onFixedPort(base);
    return { yaml, address, clients: connect(address), release: "previous", up: false };
  });
  const start = async (slot: Slot, index: number, which: Slot["release"]) => {
    slot.process = await startProcess(
      slot.yaml,
      `${which}-${index}`,
      which === "previous" ? { main: release.main } : {},
    );
    slot.release = which;
    slot.up = true;
  };
  const stop = async (slot: Slot) => {
    slot.up = false; // clients go elsewhere first, as an SDK with several addresses does
    await new Promise((r) => setTimeout(r, 300));
    const status = await slot.process!.kill("SIGTERM");
    retired.push(slot.process!.logs());
    assert.equal(status.code, 0, `a clean stop:\n${slot.process!.logs().slice(-3_000)}`);
  };
  const retired: string[] = []; // logs of the instances stopped so far
  const live = () => slots.filter((s) => s.up);
  let turn = 0;
  const anyLive = () => {
    const up = live();
    return up[turn++ % up.length]!;
  };

  await Promise.all(slots.map((slot, i) => start(slot, i, "previous")));
  const executors = runExecutors(slots[0]!.clients, NS, EXECUTORS, {
    intervalMs: 250,
    clientFor: () => anyLive().clients,
  });
  const spectator = createSpectator({
    addresses: slots.map((s) => s.address),
    namespace: NS,
  });
  const etcdClient = new Etcd3({ hosts: etcd.endpoints });
  const problems: string[] = [];
  let sampling = true;
  let samples = 0, requests = 0;
  try {
    await spectator.waitReady({ timeoutMs: 20_000 });
    // The operator's data, made through the previous release.
    await call(anyLive().clients.api, "drainShards", { namespace: NS, shardKeys: [DRAINED] });
    await call(anyLive().clients.api, "drainExecutors", {
      namespace: NS,
      selector: { zone: "retired" },
      reason: "decommissioned zone",
    });
    await call(anyLive().clients.api, "createNamespace", {
      namespace: "made-by-api",
      definitionYaml: "name: made-by-api\ntype: fixed\nshardNum: 3\nmaxDrainedShare: 0.25\n",
    });
    const owned = (owners: Map<string, string>) =>
      owners.size === SHARDS - 1 && !owners.has(DRAINED);
    await eventually(
      () => owned(spectatorOwners(spectator, SHARDS)),
      20_000,
      () =>
        `every shard but ${DRAINED} owned: ${
          JSON.stringify([...spectatorOwners(spectator, SHARDS)])
        }`,
    );
    // Balanced and settled: each executor holds its share, and the executors agree.
    await eventually(
      () => {
        const owners = spectatorOwners(spectator, SHARDS);
        const held = new Map(executors.flatMap((e) => e.shards.map((s) => [s, e.id] as const)));
        return owned(owners) && executors.every((e) => e.shards.length >= 3) &&
          [...owners].every(([shard, owner]) => held.get(shard) === owner);
      },
      30_000,
      "a balanced assignment the executors agree with",
    );
    const baseline = spectatorOwners(spectator, SHARDS);
    const gainedBefore = executors.reduce((n, e) => n + e.gained, 0);

    // Samples: every shard keeps its owner; routing answers from every running instance agree.
    const sampler = (async () => {
      while (sampling) {
        samples++;
        const owners = spectatorOwners(spectator, SHARDS);
        for (const [shard, owner] of baseline) {
          const now = owners.get(shard);
          if (now !== owner) {
            problems.push(`spectator: shard ${shard} ${owner} -> ${now ?? "none"}`);
          }
        }
        const slot = anyLive();
        const shard = String(samples % (SHARDS - 1));
        requests++;
        try {
          const answer = await call<unknown, GetShardOwnerResponse__Output>(
            slot.clients.api,
            "getShardOwner",
            { namespace: NS, shardKey: shard },
            5_000,
          );
          if (answer.owner !== baseline.get(shard)) {
            problems.push(`${slot.release} instance: shard ${shard} owner ${answer.owner}`);
          }
        } catch (error) {
          if (slot.up) problems.push(`${slot.release} instance refused: ${error}`);
        }
        await new Promise((r) => setTimeout(r, 50));
      }
    })();

    const observe = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
    const steps: string[] = [];
    const step = async (name: string, run: () => Promise<void>) => {
      const t = performance.now();
      await run();
      await observe(2_500);
      steps.push(`${name} ${Math.round(performance.now() - t)} ms`);
    };
    for (const [i, slot] of slots.entries()) {
      await step(`upgrade ${i}`, async () => {
        await stop(slot);
        await start(slot, i, "current");
      });
    }
    // Every instance runs this release now: the format record it wrote says 1, 0.1.0's.
    assert.equal(await etcdClient.get(`${prefix}/store/format`).string(), '{"version":1}');
    await step("rollback 0", async () => {
      await stop(slots[0]!);
      await start(slots[0]!, 0, "previous");
    });
    // Long enough for leadership to pass through the rolled-back instance.
    await step("mixed", () => observe(4_000));
    sampling = false;
    await sampler;

    const leaders = (slots[0]!.process!.logs().match(/"msg":"leading namespace"/g) ?? [])
      .length;
    console.log(
      `upgrade test: ${steps.join(", ")}; ${samples} samples, ${requests} routing requests; ` +
        `rolled-back instance led ${leaders} time(s); total ${
          Math.round(performance.now() - began)
        } ms`,
    );
    // No instance of either release logged an error or skipped a stored record.
    const errors = [...retired, ...slots.map((s) => s.process!.logs())].flatMap((text) =>
      text.split("\n").filter((line) => /"level":"error"|skipped/.test(line))
    );
    assert.deepEqual(errors, [], errors.slice(0, 10).join("\n"));
    assert.deepEqual(problems, [], problems.slice(0, 20).join("\n"));
    assert.deepEqual(spectatorOwners(spectator, SHARDS), baseline, "no shard moved");
    assert.equal(executors.reduce((n, e) => n + e.gained, 0), gainedBefore, "no executor gained");
    assert.ok(samples > 50, `${samples} samples`);

    // The operator's data, read back through both releases.
    for (const slot of [slots[0]!, slots[1]!]) {
      const drained = await call<unknown, GetDrainedShardsResponse__Output>(
        slot.clients.api,
        "getDrainedShards",
        { namespace: NS },
      );
      assert.deepEqual(drained.shardKeys, [DRAINED], `${slot.release}: drained shards`);
      const drains = await call<unknown, ListExecutorDrainsResponse__Output>(
        slot.clients.api,
        "listExecutorDrains",
        { namespace: NS },
      );
      assert.deepEqual(
        drains.drains.map((d) => [d.selector, d.reason]),
        [[{ zone: "retired" }, "decommissioned zone"]],
        `${slot.release}: executor drains`,
      );
      const definition = await call<unknown, GetNamespaceDefinitionResponse__Output>(
        slot.clients.api,
        "getNamespaceDefinition",
        { namespace: "made-by-api" },
      );
      assert.match(definition.definition!.definitionYaml, /maxDrainedShare: 0.25/);
      // The history both releases wrote reads back through either.
      const history = await call<unknown, ListNamespaceEventsResponse__Output>(
        slot.clients.api,
        "listNamespaceEvents",
        { namespace: NS, limit: 1_000 },
      );
      assert.ok(history.events.length > 0, `${slot.release}: history events`);
    }
    // Nothing 0.1.0 misreads was written: no warm handover record in the log or snapshot.
    const values = await etcdClient.getAll().prefix(`${prefix}/store/ns/${NS}/assignment/`)
      .strings();
    for (const [key, value] of Object.entries(values)) {
      assert.doesNotMatch(value, /"[pqkw]":/, `${key} holds a warm handover record: ${value}`);
    }
  } finally {
    sampling = false;
    await Promise.all(executors.map((e) => e.stop()));
    await spectator.close();
    etcdClient.close();
    for (const slot of slots) {
      slot.clients.close();
      if (slot.process && !slot.process.exited()) await slot.process.kill("SIGKILL");
    }
  }
});
