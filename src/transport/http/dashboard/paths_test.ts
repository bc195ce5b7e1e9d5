import assert from "node:assert/strict";
import { methodOf, parseDashboardPath } from "./paths.ts";

Deno.test("dashboard paths parse into routes with decoded namespaces", () => {
  assert.deepEqual(parseDashboardPath("/"), { kind: "page" });
  assert.deepEqual(parseDashboardPath("/browser/shard_map.js"), {
    kind: "script",
    file: "shard_map.js",
  });
  assert.equal(parseDashboardPath("/browser/../deno.json"), undefined);
  assert.equal(parseDashboardPath("/browser/a/b.js"), undefined);
  assert.deepEqual(parseDashboardPath("/api/namespaces"), { kind: "namespaces" });
  assert.deepEqual(parseDashboardPath("/api/namespaces/"), { kind: "namespaces" });
  assert.deepEqual(parseDashboardPath("/api/namespaces/orders"), {
    kind: "namespace",
    namespace: "orders",
  });
  assert.deepEqual(parseDashboardPath("/api/namespaces/a%20b/events"), {
    kind: "events",
    namespace: "a b",
  });
  assert.deepEqual(parseDashboardPath("/api/namespaces/ns/trends"), {
    kind: "trends",
    namespace: "ns",
  });
  assert.deepEqual(parseDashboardPath("/api/namespaces/ns/executors/undrain"), {
    kind: "action",
    namespace: "ns",
    target: "executors",
    action: "undrain",
  });
  assert.deepEqual(parseDashboardPath("/api/namespaces/ns/shards/drain/"), {
    kind: "action",
    namespace: "ns",
    target: "shards",
    action: "drain",
  });
});

Deno.test("paths outside the dashboard or malformed are not the dashboard's", () => {
  for (
    const path of [
      "/metrics",
      "/healthz",
      "/api",
      "/api/other",
      "/api/namespaces//events",
      "/api/namespaces/ns/events/x",
      "/api/namespaces/ns/executors",
      "/api/namespaces/ns/executors/remove",
      "/api/namespaces/ns/leaders",
      "/api/namespaces/%E0%A4%A/events",
      "/index.html",
    ]
  ) {
    assert.equal(parseDashboardPath(path), undefined, path);
  }
});

Deno.test("actions answer POST only; the rest answer GET", () => {
  assert.equal(methodOf({ kind: "page" }), "GET");
  assert.equal(methodOf({ kind: "events", namespace: "n" }), "GET");
  assert.equal(
    methodOf({ kind: "action", namespace: "n", target: "shards", action: "drain" }),
    "POST",
  );
});
