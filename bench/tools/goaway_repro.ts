// deno-lint-ignore-file no-console -- a reproduction prints what happened
/**
 * Reproduces the service aborting when a spectator closes its connection
 * while the namespace changes: one instance, 10 executors, one watch stream
 * in this process; a drain or undrain of one shard every ~20 ms; then the
 * watch's client closes (grpc-js sends an HTTP/2 GOAWAY). Under Deno 2.9.6
 * the instance often dies with `nghttp2_session.c:2402:
 * find_stream_on_goaway_func: Assertion 'stream->closed_next == NULL'
 * failed` (exit 134).
 *
 * Run: `deno run -A bench/tools/goaway_repro.ts [trials]` (default 6).
 *
 * @module
 */
import { startCluster } from "../lib/cluster.ts";
import { Control } from "../lib/control.ts";
import { Fleet } from "../lib/fleet.ts";
import { Scope } from "../lib/scope.ts";
import { sleep, waitUntil } from "../lib/wait.ts";
import { NamespaceWatch } from "../lib/watch.ts";

const trials = Number(Deno.args[0] ?? 6);
let crashes = 0;
for (let trial = 1; trial <= trials; trial++) {
  await using scope = new Scope();
  const cluster = await startCluster(scope, {
    namespaces: [{ name: "bench", type: "fixed", shardNum: 1_000 }],
  });
  const service = cluster.services[0]!;
  const fleet = await Fleet.start(scope, {
    addresses: [service.address],
    namespace: "bench",
    count: 10,
    intervalMs: 500,
  });
  const watch = new NamespaceWatch(service.address, "bench", true);
  await waitUntil(() => watch.owners.size === 1_000, 20_000, "placement");
  const control = await Control.start(scope, service.address);
  let stop = false;
  const churn = (async () => {
    for (let k = 0; !stop; k++) {
      const method = k % 2 === 0 ? "drainShards" : "undrainShards";
      await control.call(method, { namespace: "bench", shardKeys: ["7"] }).catch(() => {});
      await sleep(20);
    }
  })();
  await sleep(1_000 + Math.random() * 500);
  watch.close();
  await sleep(500);
  stop = true;
  await churn;
  await sleep(1_000);
  const crash = service.crash();
  if (crash !== undefined) crashes++;
  console.log(`trial ${trial}: ${crash ?? "the instance is alive"}`);
  await fleet.stopBeating();
}
console.log(`${crashes} of ${trials} trials aborted the instance`);
