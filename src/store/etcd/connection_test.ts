import assert from "node:assert/strict";
import { etcdConnection } from "./connection.ts";

const params = { endpoints: ["localhost:2379"], dialTimeoutMs: 1_000, prefix: "store" };

Deno.test("etcdConnection reads the TLS files and the password from its source", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(`${dir}/ca.crt`, "CA");
    await Deno.writeTextFile(`${dir}/password`, "s3cret\n");
    const connection = await etcdConnection({
      ...params,
      tls: { caFile: `${dir}/ca.crt`, serverName: "etcd.internal" },
      auth: { username: "sm", passwordFile: `${dir}/password` },
    }, "shardDistribution.store");
    assert.equal(new TextDecoder().decode(connection.tls?.ca), "CA");
    assert.equal(connection.tls?.serverName, "etcd.internal");
    assert.deepEqual(connection.auth, { username: "sm", password: "s3cret" });
    const fromEnv = await etcdConnection(
      { ...params, auth: { username: "sm", passwordEnv: "PW" } },
      "x",
      { env: (name) => name === "PW" ? "env-secret" : undefined },
    );
    assert.equal(fromEnv.auth?.password, "env-secret");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("etcdConnection names the store key and the file or variable it cannot read", async () => {
  await assert.rejects(
    etcdConnection(
      { ...params, tls: { caFile: "/nonexistent/ca.crt" } },
      "shardDistribution.store",
    ),
    /shardDistribution\.store\.storageParams\.tls\.caFile: cannot read \/nonexistent\/ca\.crt/,
  );
  await assert.rejects(
    etcdConnection(
      { ...params, auth: { username: "sm", passwordEnv: "NOPE" } },
      "shardDistribution.leaderStore",
      { env: () => undefined },
    ),
    /shardDistribution\.leaderStore\.storageParams\.auth: environment variable NOPE is not set/,
  );
});
