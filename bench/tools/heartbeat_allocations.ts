// deno-lint-ignore-file no-console -- a diagnostic tool prints its result
/**
 * Where the service allocates memory while it answers heartbeats: section
 * 7's load (one instance, 10,000 executors, 100 calls in flight from each of
 * two load processes) until every executor reports what it was given, then
 * V8's sampling heap profiler over the inspector for 10 s, counting objects
 * the GC has already collected as well. Prints the bytes per heartbeat by the
 * origin of the code that allocated them (this project, grpc-js, Deno's
 * `node:` compatibility layer...) and the top allocation sites:
 *
 * ```sh
 * deno run -A bench/tools/heartbeat_allocations.ts [sites=25]
 * ```
 *
 * The profiler slows the instance (rates are lower than section 7's) and the
 * figures are sampled (one sample per 4 KiB allocated): read them as shares.
 * Line numbers are of the JavaScript V8 ran, not of the TypeScript source.
 *
 * @module
 */
import { HeapSampler } from "../lib/heap_profile.ts";
import { runLoad, startLoadWorkers } from "../lib/load.ts";
import { freePort } from "../../tests/support/ports.ts";
import { Scope } from "../lib/scope.ts";
import { heartbeatLoad, LOADERS, startHeartbeatCluster } from "../suites/heartbeat_ingestion.ts";

const EXECUTORS = 10_000;
const SAMPLE_MS = 10_000;
const sitesArg = Deno.args.find((a) => a.startsWith("sites="));
const top = sitesArg ? Number(sitesArg.slice(6)) : 25;

const scope = new Scope();
try {
  const cluster = await startHeartbeatCluster(scope, EXECUTORS);
  await cluster.services[0]!.stop("SIGTERM");
  const inspectPort = freePort();
  const instance = await cluster.startInstance("bench-allocations", { inspectPort });
  const load = await startLoadWorkers(
    scope,
    LOADERS,
    (i) => heartbeatLoad(instance.address, "service", EXECUTORS, i),
  );
  // Every executor has to be answered twice (its shards, then its first report of them)
  // before heartbeats stop writing reports: warm up until the rate stops rising.
  let rate = 0;
  for (let round = 0; round < 8; round++) {
    const warm = await runLoad(load, SAMPLE_MS, [instance.pid]);
    console.error(`warm-up ${round + 1}: ${Math.round(warm.rate)} heartbeats/s`);
    if (round >= 2 && warm.rate < rate * 1.05) break;
    rate = warm.rate;
  }
  const sampler = await HeapSampler.start(inspectPort, { intervalBytes: 4096, allocations: true });
  const measured = await runLoad(load, SAMPLE_MS, [instance.pid]);
  const profile = await sampler.stopAllocations(top);
  const calls = measured.count;
  const perCall = (bytes: number) => `${Math.round(bytes / calls).toLocaleString("en-US")} B`;
  console.log(
    `${Math.round(measured.rate)} heartbeats/s while sampled; ${perCall(profile.total)} ` +
      `allocated per heartbeat`,
  );
  console.log("\nby origin (nearest frame with source code):");
  for (const [origin, bytes] of [...profile.origins].sort((a, b) => b[1] - a[1])) {
    const share = (100 * bytes / profile.total).toFixed(1).padStart(5);
    console.log(`${share}%  ${perCall(bytes).padStart(9)}  ${origin}`);
  }
  console.log(`\ntop ${top} sites (bytes allocated in the function itself):`);
  for (const site of profile.sites) {
    console.log(`${perCall(site.bytes).padStart(9)}  ${site.where}`);
  }
  for (const worker of load) await worker.stop();
  await instance.stop("SIGTERM");
} finally {
  await scope.close();
}
