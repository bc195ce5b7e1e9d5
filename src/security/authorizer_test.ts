import assert from "node:assert/strict";
import type { AuthConfig } from "../config/types.ts";
import { PermissionDeniedError, UnauthenticatedError } from "../core/errors.ts";
import { Authorizer } from "./authorizer.ts";
import { sha256Hex } from "./secrets.ts";

async function authorizer(overrides: Partial<AuthConfig> = {}): Promise<Authorizer> {
  return await Authorizer.create({
    tokens: [
      { name: "ops", roles: ["operator"], sha256: await sha256Hex("ops-token") },
      { name: "viewer", roles: ["spectator"], env: "VIEWER" },
      { name: "fleet", roles: ["executor", "spectator"], file: "fleet.txt" },
      { name: "ex-7", roles: ["executor"], env: "EX7", executorId: "ex-7" },
    ],
    certificates: [
      { subject: "*", roles: ["executor"] },
      { subject: "URI:spiffe://sm/dashboard", roles: ["spectator"] },
      { subject: "admin.example", roles: ["operator"] },
    ],
    anonymousRoles: [],
    ...overrides,
  }, {
    env: (name) => ({ VIEWER: "viewer-token", EX7: "ex7-token" })[name],
    readFile: () => Promise.resolve("fleet-token\n"),
  });
}

const bearer = (token: string) => `Bearer ${token}`;

Deno.test("a call without identity is UNAUTHENTICATED unless anonymous roles allow it", async () => {
  const closed = await authorizer();
  const denied = await closed.check({ method: "GetShardOwner" });
  assert.ok(!denied.allowed && denied.error instanceof UnauthenticatedError);
  const open = await authorizer({ anonymousRoles: ["spectator"] });
  assert.ok((await open.check({ method: "GetShardOwner" })).allowed);
  const drain = await open.check({ method: "DrainShards" });
  assert.ok(!drain.allowed && drain.error instanceof UnauthenticatedError);
});

Deno.test("an unknown or malformed token is UNAUTHENTICATED, even with a certificate", async () => {
  const auth = await authorizer();
  for (const authorization of [bearer("nope"), "ops-token", "Basic b3Bz", "Bearer "]) {
    const decision = await auth.check({
      method: "ListNamespaces",
      authorization,
      certificate: { commonName: "admin.example", altNames: [] },
    });
    assert.ok(!decision.allowed && decision.error instanceof UnauthenticatedError, authorization);
  }
});

Deno.test("tokens from a digest, the environment and a file each get their roles", async () => {
  const auth = await authorizer();
  assert.ok(
    (await auth.check({ method: "DrainShards", authorization: bearer("ops-token") })).allowed,
  );
  assert.ok(
    (await auth.check({ method: "ListLeaders", authorization: bearer("ops-token") })).allowed,
  );
  const spectatorDrain = await auth.check({
    method: "DrainShards",
    authorization: bearer("viewer-token"),
  });
  assert.ok(!spectatorDrain.allowed && spectatorDrain.error instanceof PermissionDeniedError);
  assert.match(spectatorDrain.error.message, /token:viewer may not call DrainShards/);
  assert.ok(
    (await auth.check({
      method: "Heartbeat",
      authorization: bearer("fleet-token"),
      executorId: "any",
    }))
      .allowed,
  );
  assert.ok(
    (await auth.check({ method: "WatchNamespaceState", authorization: bearer("fleet-token") }))
      .allowed,
  );
});

Deno.test("an executor-bound token heartbeats only as its executor", async () => {
  const auth = await authorizer();
  const call = { method: "Heartbeat", authorization: bearer("ex7-token") };
  assert.ok((await auth.check({ ...call, executorId: "ex-7" })).allowed);
  const other = await auth.check({ ...call, executorId: "ex-8" });
  assert.ok(!other.allowed && other.error instanceof PermissionDeniedError);
  assert.match(other.error.message, /only as itself \("ex-7"\), not as executor "ex-8"/);
});

Deno.test("assignment hints need the executor role, and a bound identity watches only as itself", async () => {
  const auth = await authorizer();
  const call = { method: "WatchExecutorAssignment", authorization: bearer("ex7-token") };
  assert.ok((await auth.check({ ...call, executorId: "ex-7" })).allowed);
  const other = await auth.check({ ...call, executorId: "ex-8" });
  assert.ok(!other.allowed && other.error instanceof PermissionDeniedError);
  const viewer = await auth.check({
    method: "WatchExecutorAssignment",
    authorization: bearer("viewer-token"),
    executorId: "ex-7",
  });
  assert.ok(!viewer.allowed && viewer.error instanceof PermissionDeniedError);
});

Deno.test("a certificate heartbeats only as its CN or a SAN value", async () => {
  const auth = await authorizer();
  const certificate = { commonName: "ex-1", altNames: ["URI:spiffe://sm/ex-1b"] };
  for (const executorId of ["ex-1", "spiffe://sm/ex-1b"]) {
    assert.ok((await auth.check({ method: "Heartbeat", certificate, executorId })).allowed);
  }
  const other = await auth.check({ method: "Heartbeat", certificate, executorId: "ex-2" });
  assert.ok(!other.allowed && other.error instanceof PermissionDeniedError);
  const read = await auth.check({ method: "GetShardOwner", certificate });
  assert.ok(!read.allowed && read.error instanceof PermissionDeniedError);
});

Deno.test("certificate rules match a SAN with or without its type, and add up", async () => {
  const auth = await authorizer();
  const dashboard = { altNames: ["URI:spiffe://sm/dashboard"] };
  assert.ok((await auth.check({ method: "ListNamespaces", certificate: dashboard })).allowed);
  const admin = { commonName: "x", altNames: ["DNS:admin.example"] };
  assert.ok((await auth.check({ method: "ForceResetNamespace", certificate: admin })).allowed);
  assert.ok(
    (await auth.check({ method: "Heartbeat", certificate: admin, executorId: "admin.example" }))
      .allowed,
  );
});

Deno.test("an executor-bound certificate rule names the executor id", async () => {
  const auth = await authorizer({
    certificates: [{ subject: "host-3", roles: ["executor"], executorId: "worker-3" }],
  });
  const certificate = { commonName: "host-3", altNames: [] };
  assert.ok(
    (await auth.check({ method: "Heartbeat", certificate, executorId: "worker-3" })).allowed,
  );
  assert.ok(
    !(await auth.check({ method: "Heartbeat", certificate, executorId: "host-3" })).allowed,
  );
});

Deno.test("create names the token whose secret is missing or reused", async () => {
  await assert.rejects(
    Authorizer.create({
      tokens: [{ name: "a", roles: ["operator"], env: "NOPE" }],
      certificates: [],
      anonymousRoles: [],
    }, { env: () => undefined }),
    /security\.auth\.tokens\[0\] \(a\): environment variable NOPE is not set/,
  );
  await assert.rejects(
    Authorizer.create({
      tokens: [
        { name: "a", roles: ["operator"], env: "X" },
        { name: "b", roles: ["spectator"], env: "Y" },
      ],
      certificates: [],
      anonymousRoles: [],
    }, { env: () => "same" }),
    /tokens\[1\] \(b\): the same token as token:a/,
  );
});

Deno.test("a token limited to namespaces may call only about those; other namespaces are PERMISSION_DENIED", async () => {
  const auth = await authorizer({
    tokens: [{
      name: "team-a",
      roles: ["operator"],
      sha256: await sha256Hex("a-token"),
      namespaces: ["orders", "team-a-*"],
    }],
  });
  const as = { authorization: bearer("a-token") };
  for (const namespace of ["orders", "team-a-jobs"]) {
    assert.ok((await auth.check({ ...as, method: "DrainShards", namespace })).allowed, namespace);
    assert.ok((await auth.check({ ...as, method: "GetShardOwner", namespace })).allowed, namespace);
  }
  for (const method of ["DrainShards", "WatchNamespaceState", "CreateNamespace"]) {
    const other = await auth.check({ ...as, method, namespace: "team-b-jobs" });
    assert.ok(!other.allowed && other.error instanceof PermissionDeniedError, method);
    assert.match(
      other.error.message,
      new RegExp(
        `token:team-a may not call ${method} on namespace "team-b-jobs": its \\w+ role is limited to namespaces "orders", "team-a-\\*"`,
      ),
    );
  }
  const list = await auth.check({ ...as, method: "ListNamespaces" });
  assert.ok(list.allowed);
  assert.deepEqual(["orders", "team-a-x", "team-b-x"].filter(list.sees), ["orders", "team-a-x"]);
});

Deno.test("certificate rules limited to namespaces add up per role", async () => {
  const auth = await authorizer({
    certificates: [
      { subject: "team-a", roles: ["spectator"] },
      { subject: "team-a", roles: ["operator"], namespaces: ["a-*"] },
      { subject: "team-a", roles: ["executor"], namespaces: ["a-jobs"] },
    ],
  });
  const certificate = { commonName: "team-a", altNames: [] };
  assert.ok((await auth.check({ method: "GetShardOwner", certificate, namespace: "b-x" })).allowed);
  assert.ok((await auth.check({ method: "DrainShards", certificate, namespace: "a-x" })).allowed);
  const drain = await auth.check({ method: "DrainShards", certificate, namespace: "b-x" });
  assert.ok(!drain.allowed && drain.error instanceof PermissionDeniedError);
  const beat = { method: "Heartbeat", certificate, executorId: "team-a" };
  assert.ok((await auth.check({ ...beat, namespace: "a-jobs" })).allowed);
  const elsewhere = await auth.check({ ...beat, namespace: "a-other" });
  assert.ok(!elsewhere.allowed && elsewhere.error instanceof PermissionDeniedError);
  const list = await auth.check({ method: "ListNamespaces", certificate });
  assert.ok(list.allowed && list.sees("anything"), "the unlimited spectator rule sees all");
});
