import assert from "node:assert/strict";
import {
  InvalidArgumentError,
  NamespaceNotFoundError,
  ShardNotFoundError,
} from "../../../core/errors.ts";
import type { NamespacePicture } from "../../../routing/views.ts";
import { ExecutorSamples } from "./executor_samples.ts";
import { ACTIONS_DISABLED, type DashboardBackend, dashboardRoutes } from "./mod.ts";

function fakeBackend() {
  const watchSignals: AbortSignal[] = [];
  const known = (ns: string) => {
    if (ns !== "ns") throw new NamespaceNotFoundError(ns);
  };
  const backend: DashboardBackend = {
    instanceId: "inst-1",
    health: { status: { storeReachable: true, synced: true, ready: true, checkedAtMs: 1 } },
    routing: {
      listNamespaces: () => [{ name: "ns", type: "fixed", shardNum: 2, mode: "onboarded" }],
      getNamespaceState: () => [{
        executorId: "e1",
        status: "ACTIVE",
        lastHeartbeatMs: 1,
        metadata: {},
        assignedShards: [{ shardKey: "0", load: 2, assignedRevision: 5 }],
        drainedBy: [],
        heartbeatAgeMs: 10,
        alive: true,
        liveness: "alive",
        totalLoad: 2,
      }],
      watchNamespace: (_ns, signal) => {
        watchSignals.push(signal);
        let sent = false;
        return new ReadableStream<NamespacePicture>({
          pull: (controller) => {
            if (!sent) {
              sent = true;
              return controller.enqueue({ version: 3, executors: [] });
            }
            return new Promise((resolve) =>
              signal.addEventListener("abort", () => resolve(controller.close()))
            );
          },
        }, { highWaterMark: 0 });
      },
      listLeaders: () => Promise.resolve([{ namespace: "ns", instanceId: "inst-2", term: 9 }]),
    },
    operations: {
      drainedShards: () => ["1"],
      quarantinedShards: () => [],
      drainShards: (ns, keys) => {
        known(ns);
        if (keys.includes("99")) return Promise.reject(new ShardNotFoundError(ns, "99"));
        if (keys.includes("boom")) return Promise.reject(new Error("a bug"));
        return Promise.resolve([...keys]);
      },
      undrainShards: (_ns, keys) => Promise.resolve([...keys]),
    },
    executorDrains: {
      list: () => [],
      drain: (_ns, target, reason = "") =>
        Promise.resolve({
          drain: { ...target, id: `id:${target.executorId}`, reason, createdAtMs: 1 },
          matched: [],
          dryRun: false,
          plannedMoves: [],
        }) as ReturnType<DashboardBackend["executorDrains"]["drain"]>,
      undrain: () => Promise.reject(new InvalidArgumentError("executor_id", "bad")),
    },
  };
  return { backend, watchSignals };
}

const BASE = "http://127.0.0.1:7944";

async function call(
  route: ReturnType<typeof dashboardRoutes>,
  path: string,
  init: RequestInit = {},
) {
  const request = new Request(BASE + path, init);
  return await route(request, new URL(request.url));
}

function post(body: unknown, headers: Record<string, string> = {}): RequestInit {
  return {
    method: "POST",
    headers: { "content-type": "application/json", origin: BASE, ...headers },
    body: JSON.stringify(body),
  };
}

Deno.test("dashboard serves its page, namespace list and snapshots; other paths pass", async () => {
  const route = dashboardRoutes(fakeBackend().backend, { allowActions: false });
  const page = await call(route, "/");
  assert.equal(page?.status, 200);
  assert.match(page.headers.get("content-security-policy") ?? "", /script-src 'self';/);
  assert.match(await page.text(), /<canvas id="shard-map"/);
  const script = await call(route, "/browser/app.js");
  assert.equal(script?.headers.get("content-type"), "text/javascript; charset=utf-8");
  assert.match(await script.text(), /^\/\/ @ts-check/);
  const missing = await call(route, "/browser/nope.js");
  assert.equal(missing?.status, 404);
  assert.match((await missing.json()).error, /no script "nope.js"/);
  const list = await call(route, "/api/namespaces");
  assert.deepEqual(await list?.json(), {
    instanceId: "inst-1",
    allowActions: false,
    namespaces: [{ name: "ns", type: "fixed", shardNum: 2, mode: "onboarded" }],
  });
  const snapshot = await (await call(route, "/api/namespaces/ns"))?.json();
  assert.deepEqual(snapshot.shards.owners, [0, -1]);
  assert.deepEqual(snapshot.drainedShards, ["1"]);
  assert.equal(snapshot.leader.instanceId, "inst-2");
  assert.equal(await call(route, "/metrics"), undefined);
});

Deno.test("dashboard answers each executor's samples of the last hour, and none without a sampler", async () => {
  const samples = new ExecutorSamples({ intervalMs: 15_000 });
  samples.record("ns", 1_000, [{ executorId: "e1", shardCount: 3, load: 1.5 }]);
  const route = dashboardRoutes(fakeBackend().backend, { allowActions: false, samples });
  const trends = await (await call(route, "/api/namespaces/ns/trends"))?.json();
  assert.equal(trends.namespace, "ns");
  assert.equal(trends.intervalMs, 15_000);
  assert.deepEqual(trends.times, [1_000]);
  assert.deepEqual(trends.executors, [{ executorId: "e1", shards: [3], loads: [1.5] }]);
  const none = dashboardRoutes(fakeBackend().backend, { allowActions: false });
  assert.deepEqual((await (await call(none, "/api/namespaces/ns/trends"))?.json()).executors, []);
  assert.equal((await call(none, "/api/namespaces/nope/trends"))?.status, 404);
});

Deno.test("unknown namespaces are 404 JSON, wrong methods 405", async () => {
  const route = dashboardRoutes(fakeBackend().backend, { allowActions: true });
  for (const path of ["/api/namespaces/nope", "/api/namespaces/nope/events"]) {
    const res = await call(route, path);
    assert.equal(res?.status, 404, path);
    assert.deepEqual(await res.json(), { error: 'Namespace "nope" not found' });
  }
  const missing = await call(
    route,
    "/api/namespaces/nope/shards/drain",
    post({ shardKeys: ["1"] }),
  );
  assert.equal(missing?.status, 404);
  await missing.body?.cancel();
  const wrong = await call(route, "/api/namespaces/ns/shards/drain");
  assert.equal(wrong?.status, 405);
  assert.equal(wrong.headers.get("allow"), "POST");
  await wrong.body?.cancel();
  const postPage = await call(route, "/", { method: "POST" });
  assert.equal(postPage?.status, 405);
  await postPage.body?.cancel();
});

Deno.test("actions are refused with 403 naming server.dashboardActions when off", async () => {
  const route = dashboardRoutes(fakeBackend().backend, { allowActions: false });
  const res = await call(route, "/api/namespaces/ns/executors/drain", post({ executorId: "e1" }));
  assert.equal(res?.status, 403);
  assert.deepEqual(await res.json(), { error: ACTIONS_DISABLED });
  assert.match(ACTIONS_DISABLED, /server\.dashboardActions: true/);
});

Deno.test("actions run when on, behind the CSRF guard, with errors mapped", async () => {
  const route = dashboardRoutes(fakeBackend().backend, { allowActions: true });
  const path = "/api/namespaces/ns";
  const ok = await call(route, `${path}/shards/drain`, post({ shardKeys: ["0"] }));
  assert.deepEqual([ok?.status, await ok?.json()], [200, { drainedShardKeys: ["0"] }]);
  const drained = await call(route, `${path}/executors/drain`, post({ executorId: "e1" }));
  assert.equal((await drained?.json()).drain.id, "id:e1");
  const cases: [RequestInit, number, RegExp][] = [
    [post({ shardKeys: ["99"] }), 404, /Shard "99" not found/],
    [post({ shardKeys: "0" }), 400, /Invalid shardKeys/],
    [{ ...post({}), body: "{" }, 400, /is not JSON/],
    [post({ shardKeys: ["0"] }, { "content-type": "text/plain" }), 415, /application\/json/],
    [post({ shardKeys: ["0"] }, { origin: "http://evil.example" }), 403, /Cross-origin/],
  ];
  for (const [init, status, message] of cases) {
    const res = await call(route, `${path}/shards/drain`, init);
    assert.equal(res?.status, status, String(message));
    assert.match((await res.json()).error, message);
  }
  const undrain = await call(route, `${path}/executors/undrain`, post({ executorId: "e1" }));
  assert.equal(undrain?.status, 400);
  await undrain.body?.cancel();
  await assert.rejects(
    Promise.resolve(call(route, `${path}/shards/drain`, post({ shardKeys: ["boom"] }))),
    /a bug/,
    "bugs reach the HTTP server, which logs them and answers 500",
  );
});

Deno.test("an event stream sends pictures and ends, aborting the watch, when the client goes", async () => {
  const { backend, watchSignals } = fakeBackend();
  const route = dashboardRoutes(backend, { allowActions: false, refreshMs: 30 });
  const res = await call(route, "/api/namespaces/ns/events");
  assert.equal(res?.headers.get("content-type"), "text/event-stream; charset=utf-8");
  const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
  let text = "";
  while ((text.match(/event: state/g) ?? []).length < 2) text += (await reader.read()).value;
  assert.match(text, /^retry: 2000\n\n/);
  const first = JSON.parse(text.split("\n").find((l) => l.startsWith("data: "))!.slice(6));
  assert.equal(first.version, 3);
  assert.equal(first.executors[0].executorId, "e1");
  assert.equal(watchSignals.length, 1);
  await reader.cancel(); // what Deno.serve does when the client disconnects
  assert.equal(watchSignals[0]!.aborted, true);
});
