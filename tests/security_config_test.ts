/** config/secure.example.yaml parses, and says what docs/security.md says it does. */
import assert from "node:assert/strict";
import secure from "../config/secure.example.yaml" with { type: "text" };
import { parseConfig } from "../src/config/mod.ts";

Deno.test("config/secure.example.yaml parses with TLS, mutual TLS, tokens and etcd credentials", () => {
  const config = parseConfig(secure, "config/secure.example.yaml");
  const security = config.security!;
  assert.equal(security.tls?.clientCaFile, "/etc/shard-manager/tls/clients-ca.crt");
  assert.deepEqual(security.auth?.tokens.map((t) => [t.name, t.roles]), [
    ["oncall", ["operator"]],
    ["router", ["spectator"]],
    ["batch-worker-1", ["executor"]],
    ["team-payments", ["operator"]],
  ]);
  assert.equal(security.auth?.tokens[2]?.executorId, "batch-worker-1");
  assert.deepEqual(security.auth?.tokens[3]?.namespaces, ["payments", "payments-*"]);
  assert.deepEqual(security.auth?.certificates.map((c) => c.subject), [
    "*",
    "URI:spiffe://prod/router",
  ]);
  for (const store of [config.shardDistribution.store, config.shardDistribution.leaderStore]) {
    assert.equal(store?.storageParams.tls?.caFile, "/etc/shard-manager/etcd/ca.crt");
    assert.deepEqual(store?.storageParams.auth, {
      username: "shard-manager",
      passwordFile: "/run/secrets/etcd-password",
    });
  }
});

Deno.test("security config errors name the key: clear tokens, two password sources, certificates without mTLS", () => {
  const base = `shardDistribution:
  namespaces: [{ name: a, type: ephemeral }]
  embedded: {}
`;
  const cases: [string, RegExp][] = [
    [
      "security: { auth: { tokens: [{ name: x, roles: [operator], token: hunter2 }] } }",
      /security\.auth\.tokens\[0\]\.token: unknown key "token"; expected one of: name, roles, sha256/,
    ],
    [
      "security: { auth: { tokens: [{ name: x, roles: [operator], sha256: abc }] } }",
      /security\.auth\.tokens\[0\]\.sha256: expected 64 hex digits/,
    ],
    [
      "security: { auth: { tokens: [{ name: x, roles: [operator], env: A, file: b }] } }",
      /security\.auth\.tokens\[0\]: expected only one of sha256, env, file, got env and file/,
    ],
    [
      "security: { auth: { tokens: [{ name: x, roles: [root], env: A }] } }",
      /security\.auth\.tokens\[0\]\.roles\[0\]/,
    ],
    [
      "security: { auth: { certificates: [{ subject: '*', roles: [executor] }] } }",
      /security\.auth\.certificates: need mutual TLS/,
    ],
    ["security: { tls: { certFile: a.crt } }", /security\.tls\.keyFile/],
  ];
  for (const [yaml, expected] of cases) {
    assert.throws(() => parseConfig(base + yaml + "\n"), expected, yaml);
  }
  const etcd = (params: string) =>
    `shardDistribution:
  namespaces: [{ name: a, type: ephemeral }]
  leaderStore: { storageParams: { endpoints: [a:1] } }
  store: { storageParams: { endpoints: [a:1], ${params} } }
`;
  assert.throws(
    () => parseConfig(etcd("auth: { username: u, password: p, passwordEnv: P }")),
    /store\.storageParams\.auth: expected only one of password, passwordEnv, passwordFile/,
  );
  assert.throws(
    () => parseConfig(etcd("tls: { caFile: ca, certFile: c }")),
    /store\.storageParams\.tls\.keyFile: certFile and keyFile must be given together/,
  );
  assert.equal(parseConfig(base).security, undefined);
});
