/**
 * TLS, mutual TLS and roles on the gRPC API, against real etcd and real gRPC
 * over loopback. Clients connect to `localhost` (the server certificate's
 * name): under Deno, TLS to an IP address needs a `serverName`.
 */
import assert from "node:assert/strict";
import { Buffer } from "node:buffer";
import { Executor } from "../src/client/executor/mod.ts";
import { createSpectator } from "../src/client/spectator/mod.ts";
import { clientCredentials, type ClientTlsOptions } from "../src/client/common/credentials.ts";
import { sha256Hex } from "../src/security/mod.ts";
import {
  type HeartbeatRequest,
  ShardDistributorAPIClient,
  ShardDistributorExecutorAPIClient,
} from "../src/wire/proto.ts";
import { makeCerts } from "./support/certs.ts";
import { startEtcd, uniquePrefix } from "./support/etcd.ts";
import { eventually } from "./support/executors.ts";
import { call, codeOf, grpc } from "./support/grpc_clients.ts";
import { startInProcess, testConfigYaml } from "./support/service.ts";
import { smctl } from "./support/smctl.ts";

const { UNAUTHENTICATED, PERMISSION_DENIED, UNAVAILABLE } = grpc.status;
const namespaces = [{ name: "jobs", type: "fixed", shardNum: 4 }];

/** Clients of both services on `localhost:<port of address>`. */
function clients(address: string, tls: ClientTlsOptions) {
  const target = `localhost:${address.slice(address.lastIndexOf(":") + 1)}`;
  const { credentials, options } = clientCredentials(tls);
  const api = new ShardDistributorAPIClient(target, credentials, { ...options });
  const executor = new ShardDistributorExecutorAPIClient(target, credentials, { ...options });
  return {
    target,
    api,
    executor,
    ask: (method: string, request: object) => call(api, method, request, 5_000),
    beat: (executorId: string) =>
      call(
        executor,
        "heartbeat",
        {
          namespace: "jobs",
          executorId,
          status: "EXECUTOR_STATUS_ACTIVE",
          shardStatusReports: {},
          metadata: {},
        } satisfies HeartbeatRequest,
        5_000,
      ),
    [Symbol.dispose]() {
      api.close();
      executor.close();
    },
  };
}

/** `grpc.health.v1.Health/Check` with an empty service name; true when SERVING. */
function healthCheck(target: string, tls: ClientTlsOptions): Promise<boolean> {
  const { credentials, options } = clientCredentials(tls);
  const client = new grpc.Client(target, credentials, { ...options });
  return new Promise<boolean>((resolve, reject) => {
    client.makeUnaryRequest(
      "/grpc.health.v1.Health/Check",
      () => Buffer.alloc(0),
      (bytes: Buffer) => bytes,
      {},
      new grpc.Metadata(),
      { deadline: Date.now() + 5_000 },
      (error, value) => error ? reject(error) : resolve(value?.[0] === 0x08 && value[1] === 1),
    );
  }).finally(() => client.close());
}

Deno.test("TLS with bearer tokens: plaintext is refused, and each role gets exactly its calls", async () => {
  await using certs = await makeCerts();
  await using etcd = await startEtcd();
  const dir = certs.dir;
  await Deno.writeTextFile(`${dir}/executor.token`, "executor-a-token\n");
  Deno.env.set("SM_TEST_SPECTATOR_TOKEN", "spectator-token");
  const instance = await startInProcess(testConfigYaml({
    endpoints: etcd.endpoints,
    prefix: uniquePrefix("security tokens"),
    namespaces,
    security: {
      tls: { certFile: certs.server.cert, keyFile: certs.server.key },
      auth: {
        tokens: [
          { name: "ops", roles: ["operator"], sha256: await sha256Hex("operator-token") },
          { name: "viewer", roles: ["spectator"], env: "SM_TEST_SPECTATOR_TOKEN" },
          {
            name: "exec-a",
            roles: ["executor"],
            file: `${dir}/executor.token`,
            executorId: "ex-a",
          },
        ],
      },
    },
  }));
  const tls = { caFile: certs.ca.cert };
  try {
    using anonymous = clients(instance.server.address, tls);
    using wrong = clients(instance.server.address, { ...tls, token: "guessed" });
    using viewer = clients(instance.server.address, { ...tls, token: "spectator-token" });
    using execA = clients(instance.server.address, { ...tls, token: "executor-a-token" });
    using ops = clients(instance.server.address, { ...tls, token: "operator-token" });

    assert.equal(await codeOf(anonymous.ask("listNamespaces", {})), UNAUTHENTICATED);
    assert.equal(await codeOf(wrong.ask("listNamespaces", {})), UNAUTHENTICATED);
    assert.equal(await codeOf(anonymous.beat("ex-a")), UNAUTHENTICATED);
    const stream = anonymous.api.watchNamespaceState({ namespace: "jobs" });
    const streamError = await new Promise<grpc.ServiceError>((resolve) =>
      stream.on("error", resolve).on("data", () => {})
    );
    assert.equal(streamError.code, UNAUTHENTICATED);
    // Health and reflection stay open.
    assert.equal(await healthCheck(anonymous.target, tls), true);

    // A spectator reads, but its drain is refused and changes nothing.
    assert.equal(await codeOf(viewer.ask("listNamespaces", {})), "ok");
    const drain = { namespace: "jobs", shardKeys: ["1"] };
    assert.equal(await codeOf(viewer.ask("drainShards", drain)), PERMISSION_DENIED);
    assert.equal(await codeOf(viewer.beat("ex-a")), PERMISSION_DENIED);
    const drained = await ops.ask("getDrainedShards", { namespace: "jobs" }) as {
      shardKeys: string[];
    };
    assert.deepEqual(drained.shardKeys, []);

    // An executor-bound token heartbeats as itself only; the other heartbeat left no trace.
    assert.equal(await codeOf(execA.beat("ex-a")), "ok");
    assert.equal(await codeOf(execA.beat("ex-b")), PERMISSION_DENIED);
    assert.equal(await codeOf(execA.ask("listNamespaces", {})), PERMISSION_DENIED);
    assert.equal(
      await codeOf(ops.ask("getExecutorState", { namespace: "jobs", executorId: "ex-b" })),
      grpc.status.NOT_FOUND,
    );

    // The operator drains, and reads.
    assert.equal(await codeOf(ops.ask("drainShards", drain)), "ok");
    const after = await ops.ask("getDrainedShards", { namespace: "jobs" }) as {
      shardKeys: string[];
    };
    assert.deepEqual(after.shardKeys, ["1"]);
    assert.equal(await codeOf(ops.beat("ops")), PERMISSION_DENIED);

    // Plaintext against a TLS port: no connection.
    using plain = clients(instance.server.address, {});
    assert.equal(await codeOf(plain.ask("listNamespaces", {})), UNAVAILABLE);
  } finally {
    Deno.env.delete("SM_TEST_SPECTATOR_TOKEN");
    await instance.stop();
  }
});

Deno.test("mutual TLS: clients without a certificate or with another CA's are refused; certificates carry roles and executors heartbeat only as themselves", async () => {
  await using certs = await makeCerts(["ex-1", "router"]);
  await using etcd = await startEtcd();
  const instance = await startInProcess(testConfigYaml({
    endpoints: etcd.endpoints,
    prefix: uniquePrefix("security mtls"),
    namespaces,
    security: {
      tls: {
        certFile: certs.server.cert,
        keyFile: certs.server.key,
        clientCaFile: certs.ca.cert,
      },
      auth: {
        tokens: [{ name: "ops", roles: ["operator"], sha256: await sha256Hex("operator-token") }],
        certificates: [
          { subject: "*", roles: ["executor"] },
          { subject: "URI:spiffe://test/router", roles: ["spectator"] },
        ],
      },
    },
  }));
  const address = instance.server.address;
  const ex1 = {
    caFile: certs.ca.cert,
    certFile: certs.clients["ex-1"]!.cert,
    keyFile: certs.clients["ex-1"]!.key,
  };
  const router = {
    caFile: certs.ca.cert,
    certFile: certs.clients["router"]!.cert,
    keyFile: certs.clients["router"]!.key,
  };
  try {
    using noCert = clients(address, { caFile: certs.ca.cert, token: "operator-token" });
    assert.equal(await codeOf(noCert.ask("listNamespaces", {})), UNAVAILABLE);
    using intruder = clients(address, {
      caFile: certs.ca.cert,
      certFile: certs.intruder.cert,
      keyFile: certs.intruder.key,
      token: "operator-token",
    });
    assert.equal(await codeOf(intruder.ask("listNamespaces", {})), UNAVAILABLE);

    using asEx1 = clients(address, ex1);
    assert.equal(await codeOf(asEx1.beat("ex-2")), PERMISSION_DENIED);
    assert.equal(
      await codeOf(asEx1.ask("getShardOwner", { namespace: "jobs", shardKey: "0" })),
      PERMISSION_DENIED,
    );
    using asRouter = clients(address, router);
    assert.equal(
      await codeOf(asRouter.ask("drainShards", { namespace: "jobs", shardKeys: ["0"] })),
      PERMISSION_DENIED,
    );
    // A token, when sent, is the identity even over mutual TLS.
    using opsOverMtls = clients(address, { ...ex1, token: "operator-token" });
    assert.equal(await codeOf(opsOverMtls.ask("getDrainedShards", { namespace: "jobs" })), "ok");

    // smctl's TLS flags over mutual TLS: with the router's certificate it reads.
    const port = address.slice(address.lastIndexOf(":") + 1);
    const flags = ["--address", `localhost:${port}`, "--ca-file", certs.ca.cert, "--json"];
    const listed = await smctl([
      ...flags,
      "--cert-file",
      router.certFile,
      "--key-file",
      router.keyFile,
      "namespace",
      "list",
    ]);
    assert.equal(listed.code, 0, listed.stderr);
    assert.match(listed.stdout, /"jobs"/);
    const withoutCert = await smctl([...flags, "namespace", "list"]);
    assert.notEqual(withoutCert.code, 0);
    assert.match(withoutCert.stderr, /cannot reach the service/);

    // The SDKs over mutual TLS: the executor as itself, the spectator with the router's certificate.
    const target = `localhost:${address.slice(address.lastIndexOf(":") + 1)}`;
    const running = new Set<string>();
    await using executor = await new Executor({
      addresses: [target],
      namespace: "jobs",
      executorId: "ex-1",
      metadata: { address: "ex-1.test:80" },
      heartbeatIntervalMs: 200,
      tls: ex1,
      processor: (ctx) => {
        running.add(ctx.shardKey);
        return { stop: () => void running.delete(ctx.shardKey) };
      },
    }).start();
    await using spectator = createSpectator({
      addresses: [target],
      namespace: "jobs",
      tls: router,
    });
    await eventually(() => running.size === 4, 15_000, "ex-1 to run all four shards");
    await spectator.waitReady({ timeoutMs: 10_000 });
    await eventually(
      () => ["0", "1", "2", "3"].every((k) => spectator.ownerOf(k)?.executorId === "ex-1"),
      10_000,
      "the spectator to see ex-1 own every shard",
    );
    assert.equal(executor.id, "ex-1");
  } finally {
    await instance.stop();
  }
});
