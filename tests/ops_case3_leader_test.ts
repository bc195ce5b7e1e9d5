/**
 * Issue 16, case 3: `smctl leader list` names where the leader is (its gRPC
 * and HTTP addresses and a stable instance name, `server.instanceName`), and
 * a move sent to any instance is forwarded to the leader, so smctl never
 * needs the leader's address.
 */
import assert from "node:assert/strict";
import { startEtcd, uniquePrefix } from "./support/etcd.ts";
import { call, connect } from "./support/grpc_clients.ts";
import { eventually, runExecutors } from "./support/executors.ts";
import { startInProcess, testConfigYaml } from "./support/service.ts";
import { json, smctl } from "./support/smctl.ts";
import type {
  GetShardOwnerResponse__Output,
  ListLeadersResponse__Output,
} from "../src/wire/proto.ts";

const NS = "tenants";

Deno.test("case 3: leaders are listed with name and addresses; any instance takes a move", async () => {
  await using etcd = await startEtcd();
  const base = testConfigYaml({
    endpoints: etcd.endpoints,
    prefix: uniquePrefix("ops-case3"),
    namespaces: [{ name: NS, type: "ephemeral", mode: "cells" }],
  });
  const named = (name: string) =>
    base.replace("server:\n", `server:\n  instanceName: ${JSON.stringify(name)}\n`);
  const first = await startInProcess(named("sm-one"), "id-1");
  const second = await startInProcess(named("sm-two"), "id-2");
  const instances = [first, second];
  const clients = instances.map((i) => connect(i.server.address));
  const cells = runExecutors(clients[0]!, NS, ["cell-1", "cell-2"], { intervalMs: 200 });
  try {
    let leaders: ListLeadersResponse__Output["leaders"] = [];
    await eventually(
      async () => {
        leaders = (await call<unknown, ListLeadersResponse__Output>(
          clients[1]!.api,
          "listLeaders",
          {},
        )).leaders;
        return leaders[0]?.instanceId !== "" && leaders[0]?.grpcAddress !== "";
      },
      15_000,
      "a leader with its addresses",
    );
    const leader = leaders[0]!;
    const leading = leader.instanceId === "id-1" ? first : second;
    const follower = leading === first ? second : first;
    assert.equal(leader.instanceName, leading === first ? "sm-one" : "sm-two");
    assert.equal(leader.grpcAddress, leading.server.address);
    assert.equal(leader.httpAddress, leading.http.address);

    const listed = await smctl(["--address", follower.server.address, "leader", "list"]);
    assert.equal(listed.code, 0, listed.stderr);
    assert.match(listed.stdout, /^NAMESPACE +LEADER +NAME +GRPC +HTTP +TERM/m);
    assert.match(
      listed.stdout,
      new RegExp(`^tenants +${leader.instanceId} +${leader.instanceName} `, "m"),
    );
    assert.ok(listed.stdout.includes(leading.server.address), listed.stdout);
    assert.ok(listed.stdout.includes(leading.http.address), listed.stdout);
    const doc = json<{ leaders: { instanceName: string; grpcAddress: string }[] }>(
      await smctl(["--address", follower.server.address, "leader", "list", "--json"]),
    );
    assert.equal(doc.leaders[0]!.grpcAddress, leading.server.address);

    // Place a tenant, then move it through the instance that does not lead.
    await eventually(() => cells.every((c) => c.beats > 0), 10_000, "cells heard");
    const owner = async (key: string) =>
      (await call<unknown, GetShardOwnerResponse__Output>(clients[0]!.api, "getShardOwner", {
        namespace: NS,
        shardKey: key,
      })).owner;
    await eventually(async () => (await owner("acme").catch(() => "")) !== "", 15_000, "placed");
    const from = await owner("acme");
    const to = from === "cell-1" ? "cell-2" : "cell-1";
    const preview = await smctl([
      "--address",
      follower.server.address,
      "-n",
      NS,
      "shard",
      "move",
      "acme",
      "--to",
      to,
      "--dry-run",
    ]);
    assert.equal(preview.code, 0, preview.stderr);
    assert.match(preview.stdout, new RegExp(`^acme +${from} +${to}$`, "m"));
    assert.equal(await owner("acme"), from, "a dry run moves nothing");

    const moved = await smctl([
      "--address",
      follower.server.address,
      "-n",
      NS,
      "shard",
      "move",
      "acme",
      "--to",
      to,
      "--json",
    ]);
    assert.equal(moved.code, 0, moved.stderr);
    assert.deepEqual(json<{ movedShardKeys: string[] }>(moved).movedShardKeys, ["acme"]);
    await eventually(async () => (await owner("acme")) === to, 10_000, "the move landed");

    // A request id applies once: a late retry does not undo a later move.
    const move = (cell: string, requestId = "") =>
      call(clients[1]!.api, "moveShards", {
        namespace: NS,
        shardKeys: ["acme"],
        toExecutorId: cell,
        requestId,
      });
    await move(from, "move-1");
    await eventually(async () => (await owner("acme")) === from, 10_000, "moved back");
    await move(to);
    await eventually(async () => (await owner("acme")) === to, 10_000, "moved again");
    await move(from, "move-1"); // the retry of the first call
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    assert.equal(await owner("acme"), to, "a repeated request id moves nothing");
  } finally {
    await Promise.all(cells.map((c) => c.stop()));
    for (const c of clients) c.close();
    for (const i of instances) await i.stop();
  }
});
