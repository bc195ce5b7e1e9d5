// deno-lint-ignore-file no-console -- each scenario prints what it did, for whoever checks a runtime
/**
 * The runtime regression test (docs/reliability.md, "Runtime"): no client
 * disconnect may abort a service instance, and no service instance going
 * away may abort an executor process. Deno 2.9.4 and later fail it (nghttp2's
 * `find_stream_on_goaway_func` assertion); the pinned Deno must pass it.
 *
 * Child processes run on `SM_DENO` when set, so `deno task runtime:check
 * --deno PATH` runs exactly this against another release, 20 trials per
 * scenario by default. `RUNTIME_TRIALS` sets the trials per scenario (default
 * 5 here, in CI: a 70% abort rate then passes one scenario unnoticed with a
 * chance of 0.3^5, about 0.24%, and all six with about 0.3^30; the aborts
 * we saw came at the first to third trial).
 */
import assert from "node:assert/strict";
import * as grpc from "@grpc/grpc-js";
import { ShardDistributorAPIClient } from "../src/wire/proto.ts";
import { type Etcd, startEtcd, uniquePrefix } from "./support/etcd.ts";
import { eventually, runExecutors } from "./support/executors.ts";
import { call, connect } from "./support/grpc_clients.ts";
import {
  FLAG,
  FRAME,
  frame,
  goaway,
  grpcHeaders,
  RawH2Connection,
  rstStream,
  stringFields,
} from "./support/h2_frames.ts";
import { startSdkProcess } from "./support/sdk_process.ts";
import { startInProcess, startProcess, testConfigYaml } from "./support/service.ts";
import { freePorts } from "./support/ports.ts";

const TRIALS = Number(Deno.env.get("RUNTIME_TRIALS") ?? 5);
/** Runs only the scenarios whose name contains this (for `deno task runtime:check --only`). */
const ONLY = Deno.env.get("RUNTIME_ONLY") ?? "";
const API = "/uber.cadence.sharddistributor.v1.ShardDistributorAPI";
const WATCH = `${API}/WatchNamespaceState`;
const SHARDS = 1_000;

// The pauses below are the scenarios' timing, not waits for an event: streams run a while
// before a client cuts them, and the service gets time to abort, if it would, before the check.
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** One instance with 10 executors on a namespace whose shards keep moving. */
async function withInstance(
  etcd: Etcd,
  name: string,
  scenario: (address: string, alive: (what: string) => Promise<void>) => Promise<void>,
  options: { readonly watchFirst?: boolean } = {},
): Promise<void> {
  await using service = await startProcess(
    testConfigYaml({
      endpoints: etcd.endpoints,
      prefix: uniquePrefix(name),
      namespaces: [{ name: "ns", type: "fixed", shardNum: SHARDS }],
    }),
    name,
  );
  // The test's own long-lived clients: closed only after the last check.
  const clients = connect(service.address);
  const ids = Array.from({ length: 10 }, (_, i) => `exec-${i}`);
  const executors = runExecutors(clients, "ns", ids, { intervalMs: 500 });
  const alive = async (what: string) => {
    const died = service.exited();
    assert.equal(died, undefined, `the instance aborted ${what}:\n${service.logs().slice(-2000)}`);
    const health = await fetch(`http://${service.httpAddress}/healthz`);
    await health.body?.cancel();
    assert.equal(health.status, 200, `the instance answers /healthz ${what}`);
    await call(clients.api, "getShardOwner", { namespace: "ns", shardKey: "1" }, 5_000);
  };
  // Shards keep moving while clients go away, as in bench/tools/goaway_repro.ts.
  let churning = true;
  const churn = (async () => {
    for (let k = 0; churning; k++) {
      const method = k % 2 === 0 ? "drainShards" : "undrainShards";
      await call(clients.api, method, { namespace: "ns", shardKeys: ["7"] }, 5_000)
        .catch(() => {});
      await pause(20);
    }
  })();
  try {
    // The scenario may start while the shards are being placed (many deltas to watchers).
    const placed = eventually(
      () => executors.reduce((n, e) => n + e.shards.length, 0) >= SHARDS - 1,
      20_000,
      "every shard is owned",
    );
    if (!options.watchFirst) await placed;
    await scenario(service.address, alive);
    await placed;
  } finally {
    churning = false;
    await churn;
    for (const e of executors) e.stop();
  }
  clients.close();
  await pause(500);
  assert.equal(service.exited(), undefined, "the instance aborted at the last client close");
}

function scenario(t: Deno.TestContext, name: string, fn: () => Promise<void>): Promise<boolean> {
  return t.step({ name, ignore: !name.includes(ONLY), fn });
}

Deno.test({
  name: "no client disconnect aborts a service instance",
  sanitizeOps: false,
  sanitizeResources: false,
  async fn(t) {
    await using etcd = await startEtcd();

    await scenario(t, `${TRIALS} fresh instances, each losing a grpc-js watch client`, async () => {
      // As bench/tools/goaway_repro.ts: a new instance per trial, one watch stream with deltas
      // open from the start, closed 1-1.5 s later while a shard is drained and undrained.
      for (let trial = 1; trial <= TRIALS; trial++) {
        await withInstance(etcd, `fresh-${trial}`, async (address, alive) => {
          const watcher = new ShardDistributorAPIClient(
            address,
            grpc.credentials.createInsecure(),
            { "grpc.use_local_subchannel_pool": 1 },
          );
          const stream = watcher.watchNamespaceState({ namespace: "ns", acceptDeltas: true });
          stream.on("error", () => {});
          await pause(1_000 + Math.random() * 500);
          watcher.close();
          await pause(500);
          await alive(`after the watch client of instance ${trial} closed`);
        }, { watchFirst: true });
      }
    });

    await scenario(t, `${TRIALS} grpc-js watch clients close while shards move`, async () => {
      await withInstance(etcd, "watch-close", async (address, alive) => {
        for (let trial = 1; trial <= TRIALS; trial++) {
          // A connection of its own (grpc-js shares one between clients with equal options).
          const watcher = new ShardDistributorAPIClient(
            address,
            grpc.credentials.createInsecure(),
            { "grpc.use_local_subchannel_pool": 1 },
          );
          const stream = watcher.watchNamespaceState({
            namespace: "ns",
            acceptDeltas: trial % 4 < 3,
          });
          const first = Promise.withResolvers<void>();
          stream.on("data", () => first.resolve());
          stream.on("error", () => {});
          await first.promise;
          await pause(300 + Math.random() * 500);
          if (trial % 2 === 0) stream.cancel();
          watcher.close(); // an HTTP/2 GOAWAY, with the stream still open on odd trials
          await pause(300);
          await alive(`after watch client ${trial} closed`);
        }
      });
    });

    await scenario(t, `raw HTTP/2: ${TRIALS} connections reset their watch streams`, async () => {
      await withInstance(etcd, "raw-rst", async (address, alive) => {
        for (let trial = 1; trial <= TRIALS; trial++) {
          const raw = await RawH2Connection.open(address);
          const streams = [1, 3, 5, 7, 9];
          for (const id of streams) await raw.request(id, WATCH, stringFields({ 1: "ns" }));
          await raw.waitForBytes(1_000, 2_000);
          await pause(100 + Math.random() * 200);
          for (const id of streams) await raw.write(rstStream(id));
          await raw.write(goaway(9));
          await raw.close();
          await pause(100);
          await alive(`after raw connection ${trial} reset its streams`);
        }
      });
    });

    await scenario(t, `raw HTTP/2: ${TRIALS} GOAWAYs with watch streams open`, async () => {
      await withInstance(etcd, "raw-goaway", async (address, alive) => {
        for (let trial = 1; trial <= TRIALS; trial++) {
          const raw = await RawH2Connection.open(address);
          for (const id of [1, 3, 5]) await raw.request(id, WATCH, stringFields({ 1: "ns" }));
          await raw.waitForBytes(1_000, 2_000);
          await pause(100 + Math.random() * 200);
          await raw.write(goaway(trial % 2 === 0 ? 5 : 0, trial % 3 === 0 ? 2 : 0));
          await pause(20);
          await raw.close();
          await pause(100);
          await alive(`after GOAWAY ${trial} with open streams`);
        }
      });
    });

    await scenario(t, `raw HTTP/2: ${TRIALS} TCP resets in the middle of a frame`, async () => {
      await withInstance(etcd, "raw-reset", async (address, alive) => {
        for (let trial = 1; trial <= TRIALS; trial++) {
          // Never read: closing with the server's data unread makes the kernel send a reset.
          const raw = await RawH2Connection.open(address, { read: false });
          await raw.request(1, WATCH, stringFields({ 1: "ns" }));
          const headers = frame(FRAME.HEADERS, FLAG.END_HEADERS, 3, grpcHeaders(WATCH, "x"));
          await pause(200);
          await raw.write(headers.slice(0, 5 + (trial % 7))); // part of a frame header
          await raw.close();
          await pause(100);
          await alive(`after TCP reset ${trial}`);
        }
      });
    });

    await scenario(t, "raw HTTP/2: 300 calls of an unknown method, then GOAWAY", async () => {
      await withInstance(etcd, "raw-flood", async (address, alive) => {
        for (let trial = 1; trial <= Math.max(3, Math.round(TRIALS / 4)); trial++) {
          const raw = await RawH2Connection.open(address);
          const unknown = grpcHeaders(`${API}/NoSuchMethod`, "x");
          for (let i = 0; i < 300; i++) {
            const flags = FLAG.END_HEADERS | FLAG.END_STREAM;
            await raw.write(frame(FRAME.HEADERS, flags, 2 * i + 1, unknown));
            await pause(2);
          }
          await raw.write(goaway(599));
          await raw.close();
          await pause(300);
          await alive(`after unknown-method flood ${trial} and GOAWAY`);
        }
        // The same calls in one write, and the connection closed at once.
        for (let trial = 1; trial <= TRIALS; trial++) {
          const raw = await RawH2Connection.open(address, { read: trial % 2 === 0 });
          const unknown = grpcHeaders(`${API}/NoSuchMethod`, "x");
          const flags = FLAG.END_HEADERS | FLAG.END_STREAM;
          await raw.write(
            ...Array.from({ length: 300 }, (_, i) => frame(1, flags, 2 * i + 1, unknown)),
          );
          await raw.close();
        }
        await pause(300);
        await alive("after unknown-method floods cut off at once");
      });
    });
  },
});

Deno.test({
  name: "no service instance going away aborts an executor process",
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    await using etcd = await startEtcd();
    const [port] = freePorts(1);
    const yaml = testConfigYaml({
      endpoints: etcd.endpoints,
      prefix: uniquePrefix("goaway-clients"),
      namespaces: [{ name: "ns", type: "fixed", shardNum: 16 }],
    }).replace("grpcAddress: 127.0.0.1:0", `grpcAddress: 127.0.0.1:${port}`);
    const address = `127.0.0.1:${port}`;
    const children = await Promise.all(
      [0, 1, 2].map((i) =>
        startSdkProcess("executor", {
          addresses: [address],
          namespace: "ns",
          name: `child-${i}`,
          heartbeatIntervalMs: 100,
        })
      ),
    );
    try {
      // A graceful stop closes every connection with a GOAWAY while executors call it.
      const rounds = Math.max(4, Math.round(TRIALS / 2));
      for (let round = 1; round <= rounds; round++) {
        const instance = await startInProcess(yaml, `goaway-${round}`);
        await pause(600);
        await instance.stop();
        await pause(200);
        for (const child of children) {
          assert.equal(
            child.exited(),
            undefined,
            `an executor process died when instance ${round} went away:\n${
              child.stderr().slice(-3000)
            }`,
          );
        }
      }
      console.log(`${children.length} executor processes survived ${rounds} graceful stops`);
    } finally {
      for (const child of children) await child.kill("SIGKILL");
    }
  },
});
