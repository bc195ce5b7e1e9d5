/**
 * Per-namespace authorization (`namespaces:` on a token rule) over real gRPC
 * against real etcd, through the API, smctl and the dashboard: every call
 * about a namespace outside the rule's list is PERMISSION_DENIED and changes
 * nothing; lists show only the namespaces the caller may see.
 */
import assert from "node:assert/strict";
import { clientCredentials } from "../src/client/common/credentials.ts";
import { sha256Hex } from "../src/security/mod.ts";
import {
  type HeartbeatRequest,
  ShardDistributorAPIClient,
  ShardDistributorExecutorAPIClient,
} from "../src/wire/proto.ts";
import { startEtcd, uniquePrefix } from "./support/etcd.ts";
import { call, codeOf, grpc } from "./support/grpc_clients.ts";
import { startInProcess, testConfigYaml } from "./support/service.ts";
import { smctl } from "./support/smctl.ts";

const { PERMISSION_DENIED } = grpc.status;

function clients(address: string, token: string) {
  const { credentials, options } = clientCredentials({ token });
  const api = new ShardDistributorAPIClient(address, credentials, { ...options });
  const executor = new ShardDistributorExecutorAPIClient(address, credentials, { ...options });
  return {
    api,
    ask: <T = unknown>(method: string, request: object) =>
      call(api, method, request, 5_000) as Promise<T>,
    beat: (namespace: string, executorId: string) =>
      call(
        executor,
        "heartbeat",
        {
          namespace,
          executorId,
          status: "EXECUTOR_STATUS_ACTIVE",
          shardStatusReports: {},
          metadata: {},
        } satisfies HeartbeatRequest,
        5_000,
      ),
    watchError: (namespace: string) =>
      new Promise<grpc.ServiceError>((resolve) => {
        const stream = api.watchNamespaceState({ namespace });
        stream.on("error", resolve).on("data", () => stream.cancel());
      }),
    [Symbol.dispose]() {
      api.close();
      executor.close();
    },
  };
}

Deno.test("tokens limited to namespaces: calls about other namespaces are PERMISSION_DENIED and change nothing; lists show only what the caller may see", async () => {
  await using etcd = await startEtcd();
  const yaml = testConfigYaml({
    endpoints: etcd.endpoints,
    prefix: uniquePrefix("security namespaces"),
    namespaces: [
      { name: "a-jobs", type: "fixed", shardNum: 2 },
      { name: "b-jobs", type: "fixed", shardNum: 2 },
    ],
    security: {
      auth: {
        tokens: [
          { name: "root", roles: ["operator"], sha256: await sha256Hex("root-token") },
          {
            name: "team-a",
            roles: ["operator"],
            sha256: await sha256Hex("a-token"),
            namespaces: ["a-*"],
          },
          {
            name: "team-a-executors",
            roles: ["executor"],
            sha256: await sha256Hex("a-exec-token"),
            namespaces: ["a-jobs"],
          },
          {
            name: "b-viewer",
            roles: ["spectator"],
            sha256: await sha256Hex("b-view-token"),
            namespaces: ["b-jobs"],
          },
        ],
      },
    },
  }).replace(
    "  httpAddress: 127.0.0.1:0\n",
    "  httpAddress: 127.0.0.1:0\n  dashboardActions: true\n",
  );
  const instance = await startInProcess(yaml);
  const address = instance.server.address;
  try {
    using root = clients(address, "root-token");
    using teamA = clients(address, "a-token");
    using execA = clients(address, "a-exec-token");
    using viewB = clients(address, "b-view-token");

    // Operator calls: allowed in a-*, refused elsewhere, and the refusal left no drain behind.
    assert.equal(
      await codeOf(teamA.ask("drainShards", { namespace: "a-jobs", shardKeys: ["0"] })),
      "ok",
    );
    const denied = teamA.ask("drainShards", { namespace: "b-jobs", shardKeys: ["0"] });
    await assert.rejects(denied, (e: grpc.ServiceError) =>
      e.code === PERMISSION_DENIED &&
      /token:team-a may not call DrainShards on namespace "b-jobs": its operator role is limited to namespaces "a-\*"/
        .test(e.details));
    for (
      const [method, request] of [
        ["drainExecutors", { namespace: "b-jobs", executorId: "x", selector: {}, reason: "" }],
        ["undrainShards", { namespace: "b-jobs", shardKeys: ["0"] }],
        ["forceResetNamespace", { namespace: "b-jobs" }],
        ["getShardOwner", { namespace: "b-jobs", shardKey: "0" }],
        ["getNamespaceState", { namespace: "b-jobs" }],
        ["getDrainedShards", { namespace: "b-jobs" }],
        ["inspectShard", { namespace: "b-jobs", shardKey: "0" }],
      ] as const
    ) {
      assert.equal(await codeOf(teamA.ask(method, request)), PERMISSION_DENIED, method);
    }
    assert.deepEqual(
      (await root.ask<{ shardKeys: string[] }>("getDrainedShards", { namespace: "b-jobs" }))
        .shardKeys,
      [],
    );
    assert.equal(
      (await root.ask<{ drains: unknown[] }>("listExecutorDrains", { namespace: "b-jobs" })).drains
        .length,
      0,
    );
    assert.equal((await teamA.watchError("b-jobs")).code, PERMISSION_DENIED);

    // Lists: each caller sees its namespaces only.
    const names = async (who: typeof root) =>
      (await who.ask<{ namespaces: { name: string }[] }>("listNamespaces", {})).namespaces
        .map((n) => n.name).sort();
    assert.deepEqual(await names(root), ["a-jobs", "b-jobs"]);
    assert.deepEqual(await names(teamA), ["a-jobs"]);
    assert.deepEqual(await names(viewB), ["b-jobs"]);
    const leaders = async (who: typeof root) =>
      (await who.ask<{ leaders: { namespace: string }[] }>("listLeaders", {})).leaders
        .map((l) => l.namespace).sort();
    assert.deepEqual(await leaders(teamA), ["a-jobs"]);
    assert.deepEqual(await leaders(viewB), ["b-jobs"]);

    // A spectator of b-jobs reads b-jobs and nothing else.
    assert.equal(await codeOf(viewB.ask("getNamespaceState", { namespace: "b-jobs" })), "ok");
    assert.equal(
      await codeOf(viewB.ask("getNamespaceState", { namespace: "a-jobs" })),
      PERMISSION_DENIED,
    );
    assert.equal((await viewB.watchError("a-jobs")).code, PERMISSION_DENIED);

    // An executor token of a-jobs heartbeats there, not into b-jobs (which keeps no trace).
    assert.equal(await codeOf(execA.beat("a-jobs", "ex-1")), "ok");
    assert.equal(await codeOf(execA.beat("b-jobs", "ex-1")), PERMISSION_DENIED);
    assert.equal(
      await codeOf(root.ask("getExecutorState", { namespace: "b-jobs", executorId: "ex-1" })),
      grpc.status.NOT_FOUND,
    );

    // The namespace RPCs: only inside the token's namespaces, and a refused one stores nothing.
    const define = (name: string) => `name: ${name}\ntype: fixed\nshardNum: 2\n`;
    assert.equal(
      await codeOf(teamA.ask("createNamespace", {
        namespace: "b-new",
        definitionYaml: define("b-new"),
      })),
      PERMISSION_DENIED,
    );
    assert.equal(
      await codeOf(teamA.ask("createNamespace", {
        namespace: "a-new",
        definitionYaml: define("b-new"),
      })),
      grpc.status.INVALID_ARGUMENT,
      "the request's namespace must be the definition's name",
    );
    assert.equal(
      await codeOf(root.ask("getNamespaceDefinition", { namespace: "b-new" })),
      grpc.status.NOT_FOUND,
    );
    assert.equal(
      await codeOf(viewB.ask("createNamespace", {
        namespace: "b-new",
        definitionYaml: define("b-new"),
      })),
      PERMISSION_DENIED,
      "a spectator of b-jobs creates nothing",
    );
    assert.equal(
      await codeOf(teamA.ask("createNamespace", {
        namespace: "a-new",
        definitionYaml: define("a-new"),
      })),
      "ok",
    );
    assert.equal(
      await codeOf(root.ask("createNamespace", {
        namespace: "b-new",
        definitionYaml: define("b-new"),
      })),
      "ok",
    );
    assert.equal(
      await codeOf(teamA.ask("updateNamespace", {
        namespace: "b-new",
        definitionYaml: define("b-new").replace("fixed\n", "fixed\nloadBalancer: naive\n"),
      })),
      PERMISSION_DENIED,
    );
    assert.equal(
      await codeOf(teamA.ask("deleteNamespace", { namespace: "b-new" })),
      PERMISSION_DENIED,
    );
    assert.equal(
      await codeOf(teamA.ask("getNamespaceDefinition", { namespace: "b-new" })),
      PERMISSION_DENIED,
    );
    assert.doesNotMatch(
      (await root.ask<{ definition: { definitionYaml: string } }>("getNamespaceDefinition", {
        namespace: "b-new",
      })).definition.definitionYaml,
      /naive/,
    );
    assert.ok(instance.manager.namespaces.has("b-new"), "the refused delete left it running");
    assert.deepEqual(await names(teamA), ["a-jobs", "a-new"]);
    assert.equal(await codeOf(teamA.ask("deleteNamespace", { namespace: "a-new" })), "ok");

    // smctl: the same rules (the server decides).
    const base = ["--address", address, "--token", "a-token"];
    const smDenied = await smctl([...base, "-n", "b-jobs", "shard", "drain", "1"]);
    assert.notEqual(smDenied.code, 0);
    assert.match(smDenied.stderr, /PERMISSION_DENIED.*limited to namespaces "a-\*"/s);
    const smList = await smctl([...base, "--json", "namespace", "list"]);
    assert.equal(smList.code, 0, smList.stderr);
    assert.match(smList.stdout, /a-jobs/);
    assert.doesNotMatch(smList.stdout, /b-jobs/);

    // The dashboard's actions: the same rules.
    const drain = (namespace: string) =>
      fetch(`http://${instance.http.address}/api/namespaces/${namespace}/shards/drain`, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: "Bearer a-token" },
        body: JSON.stringify({ shardKeys: ["1"] }),
      });
    const dashDenied = await drain("b-jobs");
    assert.equal(dashDenied.status, 403);
    assert.match((await dashDenied.json()).error, /on namespace "b-jobs"/);
    const dashOk = await drain("a-jobs");
    assert.equal(dashOk.status, 200, await dashOk.clone().text());
    await dashOk.body?.cancel();
    assert.deepEqual(instance.manager.operations.drainedShards("b-jobs"), []);

    // The dashboard's reads: open without a token, the same rules with one.
    const read = (path: string, token?: string) =>
      fetch(`http://${instance.http.address}/api/namespaces${path}`, {
        headers: token ? { authorization: `Bearer ${token}` } : {},
      });
    const dashNames = async (token?: string) => {
      const response = await read("", token);
      assert.equal(response.status, 200);
      return (await response.json()).namespaces.map((n: { name: string }) => n.name).sort();
    };
    assert.deepEqual(await dashNames(), ["a-jobs", "b-jobs", "b-new"]);
    assert.deepEqual(await dashNames("a-token"), ["a-jobs"]);
    assert.deepEqual(await dashNames("b-view-token"), ["b-jobs"]);
    const other = await read("/b-jobs", "a-token");
    assert.equal(other.status, 403);
    assert.match((await other.json()).error, /on namespace "b-jobs"/);
    const own = await read("/a-jobs", "a-token");
    assert.equal(own.status, 200);
    await own.body?.cancel();
    const events = await read("/b-jobs/events", "a-token");
    assert.equal(events.status, 403);
    await events.body?.cancel();
    const unknown = await read("", "guessed");
    assert.equal(unknown.status, 401);
    await unknown.body?.cancel();
  } finally {
    await instance.stop();
  }
});
