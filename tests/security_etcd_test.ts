/**
 * The service against a real etcd that requires TLS client certificates, and
 * against one with username/password authentication enabled.
 */
import assert from "node:assert/strict";
import { createEtcdClient, etcdConnection } from "../src/store/etcd/mod.ts";
import { makeCerts } from "./support/certs.ts";
import { startEtcd, uniquePrefix } from "./support/etcd.ts";
import { eventually } from "./support/executors.ts";
import { connect, heartbeat } from "./support/grpc_clients.ts";
import { startSecureEtcd } from "./support/secure_etcd.ts";
import { startInProcess, testConfigYaml } from "./support/service.ts";

const namespaces = [{ name: "jobs", type: "fixed", shardNum: 4 }];

/** Heartbeats as `ex-1` until it owns every shard: the store works and a leader was elected. */
async function ownsEverything(address: string): Promise<void> {
  const clients = connect(address);
  try {
    await eventually(
      async () => {
        const answer = await heartbeat(clients, {
          namespace: "jobs",
          executorId: "ex-1",
          status: "EXECUTOR_STATUS_ACTIVE",
          shardStatusReports: {},
          metadata: {},
        }).catch(() => undefined);
        return Object.keys(answer?.shardAssignments ?? {}).length === 4;
      },
      20_000,
      "ex-1 to own all four shards",
    );
  } finally {
    clients.close();
  }
}

async function etcdctl(endpoint: string, ...args: string[]): Promise<void> {
  const { code, stderr } = await new Deno.Command("etcdctl", {
    args: [`--endpoints=${endpoint}`, ...args],
    env: { ETCDCTL_API: "3" },
    stdout: "null",
    stderr: "piped",
  }).output();
  if (code !== 0) {
    throw new Error(`etcdctl ${args.join(" ")}: ${new TextDecoder().decode(stderr)}`);
  }
}

Deno.test("the service runs against etcd with TLS and client-certificate authentication", async () => {
  await using certs = await makeCerts(["shard-manager"]);
  await using etcd = await startSecureEtcd({
    certFile: certs.server.cert,
    keyFile: certs.server.key,
    clientCaFile: certs.ca.cert,
  });
  const client = certs.clients["shard-manager"]!;
  const tls = { caFile: certs.ca.cert, certFile: client.cert, keyFile: client.key };

  // Without a client certificate etcd refuses the connection.
  const params = { endpoints: [etcd.endpoint], dialTimeoutMs: 1_000, prefix: "x" };
  const refused = createEtcdClient(
    await etcdConnection({ ...params, tls: { caFile: certs.ca.cert } }, "test"),
  );
  try {
    await assert.rejects(refused.get("x").exec());
  } finally {
    refused.close();
  }

  const instance = await startInProcess(testConfigYaml({
    endpoints: [etcd.endpoint],
    prefix: uniquePrefix("security etcd tls"),
    namespaces,
    storageParams: { tls },
  }));
  try {
    await ownsEverything(instance.server.address);
  } finally {
    await instance.stop();
  }
});

Deno.test("the service runs against etcd with username and password, read from a file", async () => {
  await using etcd = await startEtcd();
  const endpoint = etcd.endpoints[0]!;
  const prefix = uniquePrefix("security etcd auth");
  await etcdctl(endpoint, "user", "add", "root:root-secret");
  await etcdctl(endpoint, "role", "add", "sm");
  await etcdctl(endpoint, "role", "grant-permission", "sm", "--prefix=true", "readwrite", prefix);
  await etcdctl(endpoint, "user", "add", "sm:sm-secret");
  await etcdctl(endpoint, "user", "grant-role", "sm", "sm");
  await etcdctl(endpoint, "auth", "enable");
  const dir = await Deno.makeTempDir({ prefix: "sm-etcd-auth-" });
  try {
    await Deno.writeTextFile(`${dir}/password`, "sm-secret\n");
    const params = { endpoints: [endpoint], dialTimeoutMs: 1_000, prefix };
    // A wrong password is refused, and so is no password at all.
    for (const auth of [{ username: "sm", password: "wrong" }, undefined]) {
      const client = createEtcdClient(
        await etcdConnection(auth ? { ...params, auth } : params, "test"),
      );
      try {
        await assert.rejects(client.get(`${prefix}/k`).exec());
      } finally {
        client.close();
      }
    }
    const instance = await startInProcess(testConfigYaml({
      endpoints: [endpoint],
      prefix,
      namespaces,
      storageParams: { auth: { username: "sm", passwordFile: `${dir}/password` } },
    }));
    try {
      await ownsEverything(instance.server.address);
    } finally {
      await instance.stop();
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
    // etcd's own close needs no credentials: it signals the process.
  }
});
