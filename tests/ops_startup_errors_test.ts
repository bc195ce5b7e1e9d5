/**
 * Issue 16, case 6: wrong and taken ports. The service, started as a process on a real etcd,
 * refuses a taken or invalid port, an unusable data directory and an unreadable config file with
 * one line naming the setting and its value, the documented exit code, and nothing logged as
 * started; smctl pointed at the HTTP port or at a port out of range says so.
 */
import assert from "node:assert/strict";
import { startEtcd, uniquePrefix } from "./support/etcd.ts";
import { denoBinary } from "./support/deno_bin.ts";
import { eventually } from "./support/executors.ts";
import { startInProcess, startProcess, testConfigYaml } from "./support/service.ts";
import { smctl } from "./support/smctl.ts";

const MAIN = new URL("../src/main.ts", import.meta.url).pathname;

/** Runs the service to completion (it must fail fast); returns its exit code and stderr. */
async function runService(args: readonly string[]): Promise<{ code: number; stderr: string }> {
  const child = new Deno.Command(denoBinary(), {
    args: ["run", "--quiet", "-A", MAIN, ...args],
    stdout: "null",
    stderr: "piped",
    stdin: "null",
  }).spawn();
  const timer = setTimeout(() => child.kill("SIGKILL"), 30_000);
  const { code, stderr } = await child.output();
  clearTimeout(timer);
  return { code, stderr: new TextDecoder().decode(stderr) };
}

/** The failure is one plain line (after any JSON log lines), and nothing said it started. */
function assertRefused(stderr: string, pattern: RegExp): void {
  const plain = stderr.trimEnd().split("\n").filter((l) =>
    !l.startsWith("{") && l !== "" &&
    !l.startsWith("No --config given")
  );
  assert.equal(plain.length, 1, `one error line, got:\n${stderr}`);
  assert.match(plain[0]!, pattern);
  assert.doesNotMatch(stderr, /^\s+at /m, "no stack trace");
  assert.doesNotMatch(stderr, /Uncaught|No address added/);
  assert.doesNotMatch(stderr, /"msg":"(listening|shard manager started)"/, "nothing started");
}

Deno.test("a taken gRPC or HTTP port is one line naming the key and the value, exit 1", async () => {
  await using etcd = await startEtcd();
  const dir = await Deno.makeTempDir({ prefix: "sm-startup-" });
  const held = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const taken = `127.0.0.1:${held.addr.port}`;
  try {
    for (const key of ["grpcAddress", "httpAddress"]) {
      const yaml = testConfigYaml({
        endpoints: etcd.endpoints,
        prefix: uniquePrefix("startup"),
        namespaces: [{ name: "ns", type: "fixed", shardNum: 2 }],
      }).replace(`${key}: 127.0.0.1:0`, `${key}: ${taken}`).replace("level: warn", "level: info");
      const path = `${dir}/${key}.yaml`;
      await Deno.writeTextFile(path, yaml);
      const { code, stderr } = await runService(["--config", path]);
      assert.equal(code, 1, stderr);
      assertRefused(
        stderr,
        new RegExp(`^Cannot start: server\\.${key} "${taken}": the address is already in use$`),
      );
    }
    const flag = await runService([
      "--config",
      `${dir}/grpcAddress.yaml`,
      "--grpc-address",
      "127.0.0.1:0",
      "--http-address",
      taken,
    ]);
    assert.equal(flag.code, 1, flag.stderr);
    assertRefused(flag.stderr, /^Cannot start: --http-address "127\.0\.0\.1:\d+": the address/);
  } finally {
    held.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a good start logs 'shard manager started' only after both listeners are bound", async () => {
  await using etcd = await startEtcd();
  await using service = await startProcess(
    testConfigYaml({
      endpoints: etcd.endpoints,
      prefix: uniquePrefix("startup-ok"),
      namespaces: [{ name: "ns", type: "fixed", shardNum: 2 }],
    }),
    "startup-ok",
  );
  const res = await fetch(`http://${service.httpAddress}/healthz`);
  assert.equal(res.status, 200);
  await res.body?.cancel();
  await eventually(() => service.logs().includes("shard manager started"), 5_000, "the log line");
  const logs = service.logs();
  const listening = logs.indexOf('"msg":"listening"');
  const started = logs.indexOf('"msg":"shard manager started"');
  assert.ok(listening >= 0 && started > listening, logs);
});

Deno.test("an invalid port, data directory or config file is one line and exit 2 or 1", async () => {
  const dir = await Deno.makeTempDir({ prefix: "sm-startup-" });
  try {
    const range = await runService(["--data-dir", `${dir}/d`, "--grpc-address", "127.0.0.1:99999"]);
    assert.equal(range.code, 2, range.stderr);
    assertRefused(range.stderr, /^Cannot start: --grpc-address "127\.0\.0\.1:99999": port 99999/);
    assert.doesNotMatch(range.stderr, /RangeError|ERR_SOCKET_BAD_PORT/);

    const config = `${dir}/bad.yaml`;
    await Deno.writeTextFile(config, "server:\n  httpAddress: 127.0.0.1:70000\n");
    const invalid = await runService(["--config", config]);
    assert.equal(invalid.code, 2, invalid.stderr);
    assert.match(invalid.stderr, /server\.httpAddress: .*"127\.0\.0\.1:70000"/);

    const missing = await runService(["--config", `${dir}/nope.yaml`]);
    assert.equal(missing.code, 2, missing.stderr);
    assertRefused(missing.stderr, /nope\.yaml: could not read the file/);

    const file = `${dir}/plain-file`;
    await Deno.writeTextFile(file, "not a directory");
    const dataDir = await runService([
      "--data-dir",
      `${file}/store`,
      "--grpc-address",
      "127.0.0.1:0",
      "--http-address",
      "127.0.0.1:0",
    ]);
    assert.equal(dataDir.code, 1, dataDir.stderr);
    assertRefused(
      dataDir.stderr,
      new RegExp(`^Cannot start: shardDistribution\\.embedded\\.dataDir "${file}/store": `),
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("smctl --address on the HTTP port or out of range says what is wrong", async () => {
  await using etcd = await startEtcd();
  const instance = await startInProcess(testConfigYaml({
    endpoints: etcd.endpoints,
    prefix: uniquePrefix("startup-smctl"),
    namespaces: [{ name: "ns", type: "fixed", shardNum: 2 }],
  }));
  try {
    const http = await smctl(["--address", instance.http.address, "namespace", "list"]);
    assert.equal(http.code, 2, http.stderr);
    assert.match(http.stderr, /that looks like the HTTP port/);
    assert.doesNotMatch(http.stderr, /RESOURCE_EXHAUSTED|1869881446/);

    const range = await smctl(["--address", "127.0.0.1:99999", "namespace", "list"]);
    assert.equal(range.code, 2, range.stderr);
    assert.equal(
      range.stderr.trim(),
      'smctl: --address "127.0.0.1:99999": port 99999 is out of range (1-65535)',
    );

    // A web server that speaks only HTTP/1.1 breaks the HTTP/2 connection in other ways.
    const http1 = Deno.listen({ hostname: "127.0.0.1", port: 0 });
    const serving = (async () => {
      for await (const conn of http1) {
        (async () => {
          try {
            await conn.read(new Uint8Array(4096));
            await conn.write(
              new TextEncoder().encode(
                "HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\nConnection: close\r\n\r\n",
              ),
            );
          } catch { /* the client went away */ }
          try {
            conn.close();
          } catch { /* closed */ }
        })();
      }
    })().catch(() => {});
    const web = await smctl(["--address", `127.0.0.1:${http1.addr.port}`, "namespace", "list"]);
    http1.close();
    await serving;
    assert.equal(web.code, 2, web.stderr);
    assert.match(web.stderr, /answered with a plain HTTP response, not gRPC/);

    const ok = await smctl(["--address", instance.server.address, "namespace", "list"]);
    assert.equal(ok.code, 0, ok.stderr);
  } finally {
    await instance.stop();
  }
});
