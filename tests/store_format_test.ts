/**
 * The store's format version (src/store/store_format.ts) on a real etcd: a
 * new store gets the newest format, a store release 0.1.0 wrote (data, no
 * record) is format 1, a store marked newer than this release reads stops
 * the start with one line naming both formats (exit 1), and
 * `--raise-store-format` raises a store once.
 */
import assert from "node:assert/strict";
import { Etcd3 } from "etcd3";
import { startEtcd, uniquePrefix } from "./support/etcd.ts";
import { denoBinary } from "./support/deno_bin.ts";
import { startInProcess, startProcess, testConfigYaml } from "./support/service.ts";
import { call, connect, grpc } from "./support/grpc_clients.ts";
import { eventually } from "./support/executors.ts";
import { runWarmExecutor, type WarmExecutor } from "./support/warm_executors.ts";
import { NEWEST_STORE_FORMAT, StoreFormatError } from "../src/store/mod.ts";

const MAIN = new URL("../src/main.ts", import.meta.url).pathname;
const NAMESPACES = [{ name: "ns", type: "fixed", shardNum: 2 }];

/** Runs `src/main.ts` to completion; its exit code, stdout and stderr. */
async function runMain(
  args: readonly string[],
): Promise<{ code: number; stdout: string; stderr: string }> {
  const child = new Deno.Command(denoBinary(), {
    args: ["run", "--quiet", "-A", MAIN, ...args],
    stdout: "piped",
    stderr: "piped",
    stdin: "null",
  }).spawn();
  const timer = setTimeout(() => child.kill("SIGKILL"), 30_000);
  const { code, stdout, stderr } = await child.output();
  clearTimeout(timer);
  const text = new TextDecoder();
  return { code, stdout: text.decode(stdout), stderr: text.decode(stderr) };
}

/** A configuration file for `prefix`; removed with its directory by the caller. */
async function configFile(endpoints: string[], prefix: string): Promise<string> {
  const dir = await Deno.makeTempDir({ prefix: "sm-format-" });
  const path = `${dir}/config.yaml`;
  await Deno.writeTextFile(path, testConfigYaml({ endpoints, prefix, namespaces: NAMESPACES }));
  return path;
}

Deno.test("a new store gets the newest format; one release 0.1.0 wrote is format 1", async () => {
  await using etcd = await startEtcd();
  const client = new Etcd3({ hosts: etcd.endpoints });
  try {
    const fresh = uniquePrefix("format-fresh");
    const a = await startInProcess(
      testConfigYaml({ endpoints: etcd.endpoints, prefix: fresh, namespaces: NAMESPACES }),
    );
    await a.stop();
    assert.equal(
      await client.get(`${fresh}/store/format`).string(),
      `{"version":${NEWEST_STORE_FORMAT}}`,
    );
    // As release 0.1.0 leaves a store: its keys, and no format record.
    const old = uniquePrefix("format-old");
    await client.put(`${old}/store/ns/ns/assignment/head`).value("3");
    const b = await startInProcess(
      testConfigYaml({ endpoints: etcd.endpoints, prefix: old, namespaces: NAMESPACES }),
    );
    await b.stop();
    assert.equal(await client.get(`${old}/store/format`).string(), '{"version":1}');
  } finally {
    client.close();
  }
});

Deno.test("refuses a newer format: the start stops with both formats named, exit 1", async () => {
  await using etcd = await startEtcd();
  const client = new Etcd3({ hosts: etcd.endpoints });
  const prefix = uniquePrefix("format-newer");
  const path = await configFile(etcd.endpoints, prefix);
  try {
    await client.put(`${prefix}/store/format`).value('{"version":9}');
    await client.put(`${prefix}/store/ns/ns/assignment/head`).value('{"future":true}');
    await assert.rejects(
      startInProcess(
        testConfigYaml({ endpoints: etcd.endpoints, prefix, namespaces: NAMESPACES }),
      ),
      (error: Error) => error.cause instanceof StoreFormatError,
    );
    const { code, stderr } = await runMain(["--config", path]);
    assert.equal(code, 1, stderr);
    const plain = stderr.split("\n").filter((l) => l !== "" && !l.startsWith("{"));
    assert.equal(plain.length, 1, stderr);
    assert.match(plain[0]!, /^Cannot start: The store is at format 9 \(.*\/store\/format\)/);
    assert.match(plain[0]!, new RegExp(`formats 1 to ${NEWEST_STORE_FORMAT}`));
    assert.match(plain[0]!, /Run that release/);
    assert.doesNotMatch(stderr, /"msg":"(listening|shard manager started)"/);
    // Nothing was written over the newer store's records.
    assert.equal(await client.get(`${prefix}/store/format`).string(), '{"version":9}');
    assert.equal(await client.getAll().prefix(`${prefix}/store/definitions/`).count(), 0);
  } finally {
    client.close();
    await Deno.remove(path.replace(/\/config\.yaml$/, ""), { recursive: true });
  }
});

Deno.test("a damaged format record stops the start too, saying what it found", async () => {
  await using etcd = await startEtcd();
  const client = new Etcd3({ hosts: etcd.endpoints });
  const prefix = uniquePrefix("format-damaged");
  try {
    await client.put(`${prefix}/store/format`).value("two");
    await assert.rejects(
      startInProcess(
        testConfigYaml({ endpoints: etcd.endpoints, prefix, namespaces: NAMESPACES }),
      ),
      /format record .*\/store\/format cannot be read \(found "two"\)/,
    );
  } finally {
    client.close();
  }
});

Deno.test("--raise-store-format raises a format-1 store once, and refuses unknown formats", async () => {
  await using etcd = await startEtcd();
  const client = new Etcd3({ hosts: etcd.endpoints });
  const prefix = uniquePrefix("format-raise");
  const path = await configFile(etcd.endpoints, prefix);
  try {
    await client.put(`${prefix}/store/format`).value('{"version":1}');
    const first = await runMain(["--config", path, "--raise-store-format", "2"]);
    assert.equal(first.code, 0, first.stderr);
    assert.match(first.stdout, /raised from 1 to 2/);
    assert.equal(await client.get(`${prefix}/store/format`).string(), '{"version":2}');
    const again = await runMain(["--config", path, "--raise-store-format", "2"]);
    assert.equal(again.code, 0, again.stderr);
    assert.match(again.stdout, /already at format 2; nothing changed/);
    const unknown = await runMain(["--config", path, "--raise-store-format", "5"]);
    assert.equal(unknown.code, 2);
    assert.match(unknown.stderr, /--raise-store-format "5": .*knows formats 1 to 2/);
  } finally {
    client.close();
    await Deno.remove(path.replace(/\/config\.yaml$/, ""), { recursive: true });
  }
});

Deno.test("at format 1, a definition with a setting release 0.1.0 does not know is refused until the format is raised", async () => {
  await using etcd = await startEtcd();
  const client = new Etcd3({ hosts: etcd.endpoints });
  const prefix = uniquePrefix("format-settings");
  const yaml = testConfigYaml({
    endpoints: etcd.endpoints,
    prefix,
    namespaces: [{ name: "ns", type: "fixed", shardNum: 2, coldStartWait: "0s" }],
  });
  const create = (clients: ReturnType<typeof connect>, name: string, extra: string) =>
    call(clients.api, "createNamespace", {
      namespace: name,
      definitionYaml: `name: ${name}\ntype: fixed\nshardNum: 2\n${extra}`,
    });
  try {
    await client.put(`${prefix}/store/format`).value('{"version":1}');
    const old = await startInProcess(yaml);
    const clients = connect(old.server.address);
    try {
      // The file's namespace uses coldStartWait (not in 0.1.0): it was not stored.
      assert.equal(await client.get(`${prefix}/store/definitions/ns`).string(), null);
      const refused = await create(clients, "late", "settleWindow: 5s\n").then(
        () => assert.fail("created"),
        (e: grpc.ServiceError) => e,
      );
      assert.equal(refused.code, grpc.status.FAILED_PRECONDITION);
      assert.match(refused.details, /settleWindow is a setting release 0\.1\.0 does not know/);
      assert.match(refused.details, /--raise-store-format 2/);
      await create(clients, "plain", "maxDrainedShare: 0.5\n");
    } finally {
      clients.close();
      await old.stop();
    }
    await client.put(`${prefix}/store/format`).value('{"version":2}');
    const raised = await startInProcess(yaml);
    const again = connect(raised.server.address);
    try {
      await create(again, "late", "settleWindow: 5s\n");
      assert.match(
        (await client.get(`${prefix}/store/definitions/ns`).string()) ?? "",
        /coldStartWait/,
      );
    } finally {
      again.close();
      await raised.stop();
    }
  } finally {
    client.close();
  }
});

Deno.test("warm handover stays off on a format-1 store (no prepare record) and starts once it is raised", async () => {
  await using etcd = await startEtcd();
  const client = new Etcd3({ hosts: etcd.endpoints });
  const prefix = uniquePrefix("format-warm");
  // Only release 0.1.0's settings: the store is at its format.
  const yaml = testConfigYaml({
    endpoints: etcd.endpoints,
    prefix,
    namespaces: [{ name: "ns", type: "fixed", shardNum: 4 }],
    serviceColdStartWait: true,
  });
  const log = async () =>
    Object.values(await client.getAll().prefix(`${prefix}/store/ns/ns/assignment/`).strings());
  const executors: WarmExecutor[] = [];
  try {
    await client.put(`${prefix}/store/format`).value('{"version":1}');
    let instance = await startInProcess(yaml);
    let clients = connect(instance.server.address);
    const a = runWarmExecutor(clients, "ns", "a");
    executors.push(a);
    await eventually(() => a.serving.length === 4, 15_000, "a serves all");
    const b = runWarmExecutor(clients, "ns", "b");
    executors.push(b);
    await eventually(() => b.serving.length === 2, 15_000, "b takes its share");
    assert.ok(b.history.every((h) => h.status === "READY"), JSON.stringify(b.history));
    for (const value of await log()) assert.doesNotMatch(value, /"[pqk]":/, value);

    await Promise.all(executors.map((e) => e.stop()));
    executors.length = 0;
    clients.close();
    await instance.stop();
    await client.put(`${prefix}/store/format`).value('{"version":2}');
    instance = await startInProcess(yaml);
    clients = connect(instance.server.address);
    try {
      for (const id of ["a", "b"]) executors.push(runWarmExecutor(clients, "ns", id));
      await eventually(() => executors.every((e) => e.serving.length === 2), 15_000, "2 each");
      const c = runWarmExecutor(clients, "ns", "c");
      executors.push(c);
      await eventually(
        () => c.history.some((h) => h.status === "PREPARING"),
        15_000,
        "c is asked to prepare",
      );
      assert.ok((await log()).some((value) => /"p":/.test(value)), "a prepare record");
    } finally {
      await Promise.all(executors.map((e) => e.stop()));
      clients.close();
      await instance.stop();
    }
  } finally {
    client.close();
  }
});

Deno.test("a running instance stops (exit 1) when a newer release raises the format past what it reads", async () => {
  await using etcd = await startEtcd();
  const client = new Etcd3({ hosts: etcd.endpoints });
  const prefix = uniquePrefix("format-raised-under");
  try {
    await using service = await startProcess(
      testConfigYaml({ endpoints: etcd.endpoints, prefix, namespaces: NAMESPACES }),
      "runs-format-2",
    );
    // A raise within what it reads changes nothing.
    await client.put(`${prefix}/store/format`).value(`{"version":${NEWEST_STORE_FORMAT}}`);
    await new Promise((r) => setTimeout(r, 500));
    assert.equal(service.exited(), undefined, "still running");
    await client.put(`${prefix}/store/format`).value('{"version":3}');
    await eventually(() => service.exited() !== undefined, 10_000, "the instance to stop");
    assert.equal(service.exited()!.code, 1, service.logs());
    assert.match(service.logs(), /\nStopped: The store is at format 3 \(.*\/store\/format\)/);
    assert.match(service.logs(), /"msg":"stopping: the store's format changed/);
  } finally {
    client.close();
  }
});
