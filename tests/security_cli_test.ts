/**
 * smctl against a service process with TLS and roles; the service's start-up
 * errors for bad certificate files.
 */
import assert from "node:assert/strict";
import { sha256Hex } from "../src/security/mod.ts";
import { makeCerts } from "./support/certs.ts";
import { startEtcd, uniquePrefix } from "./support/etcd.ts";
import { smctl } from "./support/smctl.ts";
import { startProcess, testConfigYaml } from "./support/service.ts";

Deno.test("smctl with --token or SM_TOKEN over TLS: the operator drains, a spectator is refused, and the service logs the denial", async () => {
  await using certs = await makeCerts();
  await using etcd = await startEtcd();
  const yaml = testConfigYaml({
    endpoints: etcd.endpoints,
    prefix: uniquePrefix("security smctl"),
    namespaces: [{ name: "jobs", type: "fixed", shardNum: 4 }],
    security: {
      tls: { certFile: certs.server.cert, keyFile: certs.server.key },
      auth: {
        tokens: [
          { name: "ops", roles: ["operator"], sha256: await sha256Hex("operator-token") },
          { name: "viewer", roles: ["spectator"], sha256: await sha256Hex("viewer-token") },
        ],
      },
    },
  });
  await using service = await startProcess(yaml, "secure-1");
  const port = service.address.slice(service.address.lastIndexOf(":") + 1);
  const base = ["--address", `localhost:${port}`, "--ca-file", certs.ca.cert, "-n", "jobs"];

  const anonymous = await smctl([...base, "shard", "drained"]);
  assert.notEqual(anonymous.code, 0);
  assert.match(anonymous.stderr, /not authenticated.*--token/s);

  const viewer = await smctl([...base, "shard", "drain", "1"], {
    env: { SM_TOKEN: "viewer-token" },
  });
  assert.notEqual(viewer.code, 0);
  assert.match(viewer.stderr, /PERMISSION_DENIED.*token:viewer may not call DrainShards/s);

  const drain = await smctl([...base, "--token", "operator-token", "shard", "drain", "2"]);
  assert.equal(drain.code, 0, drain.stderr);
  const listed = await smctl([...base, "--json", "shard", "drained"], {
    env: { SM_TOKEN: "operator-token" },
  });
  assert.equal(listed.code, 0, listed.stderr);
  assert.match(listed.stdout, /"2"/);
  assert.doesNotMatch(listed.stdout, /"1"/);

  // Plaintext smctl against the TLS port cannot connect.
  const plain = await smctl(["--address", `localhost:${port}`, "-n", "jobs", "shard", "drained"]);
  assert.notEqual(plain.code, 0);

  assert.match(
    service.logs(),
    /"msg":"call denied".*"method":"DrainShards".*"principal":"token:viewer"/,
  );
});

Deno.test("the service refuses to start on a missing, unreadable or mismatched certificate file, naming it", async () => {
  await using certs = await makeCerts(["other"]);
  const base = testConfigYaml({
    endpoints: ["127.0.0.1:1"],
    prefix: "unused",
    namespaces: [{ name: "jobs", type: "ephemeral" }],
  });
  const cases: [Record<string, string>, RegExp][] = [
    [
      { certFile: `${certs.dir}/missing.crt`, keyFile: certs.server.key },
      /security\.tls\.certFile: cannot read .*missing\.crt/,
    ],
    [
      { certFile: certs.server.cert, keyFile: certs.clients["other"]!.key },
      /security\.tls\.keyFile .* does not match the certificate/,
    ],
    [
      { certFile: certs.server.key, keyFile: certs.server.key },
      /security\.tls\.certFile .*: not a PEM certificate/,
    ],
  ];
  for (const [tls, expected] of cases) {
    const error = await startProcess(`${base}security: ${JSON.stringify({ tls })}\n`, "bad")
      .then(
        async (service) => {
          await service.kill("SIGKILL");
          return new Error("started");
        },
        (error: Error) => error,
      );
    assert.match(error.message, expected);
    assert.match(error.message, /Cannot start/);
    assert.doesNotMatch(error.message, /^\s+at /m, "no stack trace");
  }
});
