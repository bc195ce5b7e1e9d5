import assert from "node:assert/strict";
import { Buffer } from "node:buffer";
import { Etcd3 } from "etcd3";
import {
  type EtcdCluster,
  type EtcdMember,
  startEtcd,
  startEtcdCluster,
  uniquePrefix,
} from "./etcd.ts";
import { freePort, freePorts, httpGet } from "./ports.ts";

Deno.test("freePorts returns distinct ports that can be bound", () => {
  const ports = freePorts(4);
  assert.equal(new Set(ports).size, 4);
  const listener = Deno.listen({ hostname: "127.0.0.1", port: freePort() });
  listener.close();
  assert.throws(() => freePorts(-1), RangeError);
});

Deno.test("uniquePrefix differs per call and keeps a readable name", () => {
  const a = uniquePrefix("Leader election: fencing");
  const b = uniquePrefix("Leader election: fencing");
  assert.notEqual(a, b);
  assert.match(a, /^t-leader-election-fencing-[0-9a-f]{12}$/);
});

Deno.test("startEtcd serves puts and gets to a real client", async () => {
  await using etcd = await startEtcd();
  assert.equal(etcd.endpoints.length, 1);
  const client = new Etcd3({ hosts: etcd.endpoints });
  try {
    const key = `${uniquePrefix("single")}/k`;
    await client.put(key).value("v1");
    assert.equal(await client.get(key).string(), "v1");
  } finally {
    client.close();
  }
});

Deno.test("startEtcd passes its options to etcd", async () => {
  await using etcd = await startEtcd({
    maxTxnOps: 4,
    quotaBackendBytes: 64 * 1024 * 1024,
    autoCompactionRetention: "1m",
  });
  const client = new Etcd3({ hosts: etcd.endpoints });
  try {
    const prefix = uniquePrefix("txn");
    const puts = (n: number) =>
      Array.from({ length: n }, (_, i) => ({
        request_put: { key: Buffer.from(`${prefix}/${i}`), value: Buffer.from("x") },
      }));
    await client.kv.txn({ compare: [], success: puts(4), failure: [] });
    await assert.rejects(
      client.kv.txn({ compare: [], success: puts(5), failure: [] }),
      /too many operations in txn request/,
    );
  } finally {
    client.close();
  }
});

Deno.test("startEtcd returns ETCD_ENDPOINTS without starting a process", async () => {
  const before = Deno.env.get("ETCD_ENDPOINTS");
  Deno.env.set("ETCD_ENDPOINTS", "127.0.0.1:1, 127.0.0.1:2");
  try {
    const etcd = await startEtcd();
    assert.deepEqual(etcd.endpoints, ["127.0.0.1:1", "127.0.0.1:2"]);
    await etcd.close();
  } finally {
    if (before === undefined) Deno.env.delete("ETCD_ENDPOINTS");
    else Deno.env.set("ETCD_ENDPOINTS", before);
  }
});

Deno.test("startEtcd rejects bad options with a RangeError", async () => {
  await assert.rejects(startEtcd({ maxTxnOps: 0 }), /maxTxnOps must be a positive integer, got 0/);
  await assert.rejects(startEtcdCluster(0), RangeError);
});

Deno.test("startEtcd names the package to install when etcd is missing", async () => {
  const path = Deno.env.get("PATH") ?? "";
  const bin = Deno.env.get("ETCD_BIN");
  Deno.env.set("PATH", "/nonexistent");
  Deno.env.delete("ETCD_BIN");
  try {
    await assert.rejects(
      startEtcd(),
      /etcd not found: apt-get install etcd-server, or set ETCD_ENDPOINTS/,
    );
  } finally {
    Deno.env.set("PATH", path);
    if (bin !== undefined) Deno.env.set("ETCD_BIN", bin);
  }
});

Deno.test("etcd dies with a test process that crashes before close()", async () => {
  const tmp = await Deno.makeTempDir(); // the crashed child cannot remove its data dir
  const script = `${tmp}/crash.ts`;
  try {
    await Deno.writeTextFile(
      script,
      `import { startEtcd } from ${JSON.stringify(import.meta.resolve("./etcd.ts"))};
       const etcd = await startEtcd();
       console.log(etcd.endpoints[0]);
       throw new Error("crash");`,
    );
    const { stdout, success } = await new Deno.Command(Deno.execPath(), {
      args: ["run", "--allow-all", "--no-config", script],
      env: { TMPDIR: tmp },
      stdout: "piped",
      stderr: "null",
    }).output();
    assert.equal(success, false);
    const port = Number(new TextDecoder().decode(stdout).trim().split(":")[1]);
    assert(port > 0, "the child printed no endpoint");
    let answers = true;
    for (let i = 0; i < 100 && answers; i++) {
      answers = (await httpGet(port, "/health", 200)) !== undefined;
      if (answers) await new Promise((resolve) => setTimeout(resolve, 20));
    }
    assert.equal(answers, false, "etcd outlived the process that started it");
  } finally {
    await Deno.remove(tmp, { recursive: true });
  }
});

Deno.test("an etcd whose flags are wrong fails fast with its log", async () => {
  await assert.rejects(
    startEtcd({ extraArgs: ["--no-such-flag"] }),
    /exited during startup[^]*no-such-flag/,
  );
});

/** Members other than the raft leader, found with each member's Status RPC. */
async function followers(cluster: EtcdCluster): Promise<EtcdMember[]> {
  const statuses = await Promise.all(cluster.members.map(async (member) => {
    const client = new Etcd3({ hosts: [member.clientEndpoint] });
    try {
      return await client.maintenance.status();
    } finally {
      client.close();
    }
  }));
  return cluster.members.filter((_, i) => statuses[i]!.header.member_id !== statuses[i]!.leader);
}

// A follower, not the leader: with the leader gone, etcd 3.4 holds a write
// sent to a follower for its 7 s request timeout before the client retries.
Deno.test("a 3-member cluster keeps serving writes with a follower down", async () => {
  await using cluster = await startEtcdCluster(3);
  assert.equal(cluster.members.length, 3);
  assert.deepEqual(cluster.endpoints, cluster.members.map((m) => m.clientEndpoint));
  const prefix = uniquePrefix("cluster");
  const down = (await followers(cluster))[0];
  assert(down !== undefined);
  const up = cluster.members.filter((m) => m !== down);

  const client = new Etcd3({ hosts: up.map((m) => m.clientEndpoint) });
  try {
    await client.put(`${prefix}/before`).value("1");
    await down.kill();
    assert.equal(down.running, false);
    await client.put(`${prefix}/during`).value("2");
    assert.equal(await client.get(`${prefix}/during`).string(), "2");

    await down.start();
    assert.equal(down.running, true);
  } finally {
    client.close();
  }

  // The restarted member catches up: a linearizable read through it alone sees the write.
  const direct = new Etcd3({ hosts: [down.clientEndpoint] });
  try {
    assert.equal(await direct.get(`${prefix}/during`).string(), "2");
  } finally {
    direct.close();
  }
});

Deno.test("close stops every member, including a paused one, and removes the data dirs", async () => {
  const tmp = await Deno.makeTempDir();
  const before = Deno.env.get("TMPDIR");
  Deno.env.set("TMPDIR", tmp);
  try {
    const cluster = await startEtcdCluster(3);
    assert.equal((await Array.fromAsync(Deno.readDir(tmp))).length, 1);
    const [paused] = cluster.members;
    assert(paused !== undefined);
    await paused.kill("SIGSTOP");
    assert.equal(paused.running, true);
    await cluster.close();
    assert(cluster.members.every((m) => !m.running));
    assert.deepEqual(await Array.fromAsync(Deno.readDir(tmp)), []);
    await cluster.close(); // idempotent
  } finally {
    if (before === undefined) Deno.env.delete("TMPDIR");
    else Deno.env.set("TMPDIR", before);
    await Deno.remove(tmp, { recursive: true });
  }
});

Deno.test("startEtcd removes data dirs left by test processes that died", async () => {
  const tmp = await Deno.makeTempDir();
  const before = Deno.env.get("TMPDIR");
  const child = new Deno.Command("true").spawn();
  await child.status; // exited and reaped: a pid nobody holds
  const { pid } = child;
  await Deno.mkdir(`${tmp}/etcd-test-crashed`);
  await Deno.writeTextFile(`${tmp}/etcd-test-crashed/owner.pid`, `${pid}\n`);
  await Deno.mkdir(`${tmp}/etcd-test-running`);
  await Deno.writeTextFile(`${tmp}/etcd-test-running/owner.pid`, `${Deno.pid}\n`);
  Deno.env.set("TMPDIR", tmp);
  try {
    await using _etcd = await startEtcd();
    const names = (await Array.fromAsync(Deno.readDir(tmp))).map((e) => e.name);
    assert(!names.includes("etcd-test-crashed"));
    assert(names.includes("etcd-test-running"));
  } finally {
    if (before === undefined) Deno.env.delete("TMPDIR");
    else Deno.env.set("TMPDIR", before);
    await Deno.remove(tmp, { recursive: true });
  }
});
