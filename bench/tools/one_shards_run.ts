// deno-lint-ignore-file no-console -- a diagnostic tool prints its result
/**
 * One run of the shards-per-namespace measurement, printed as JSON, with the
 * service's log kept in the artifacts directory it names at the end:
 *
 * ```sh
 * deno run -A bench/tools/one_shards_run.ts [quick] [profile] [heap] [ttl10]
 * ```
 *
 * `profile` writes CPU profiles into the artifacts directory; `heap` samples
 * the service's heap from the lifted drain to the end of the steady window and
 * prints the 40 allocation sites holding the most live memory; `ttl10` sets the
 * namespace's heartbeat TTL to 10 s (two intervals) instead of six intervals.
 * `BENCH_SERVICE_V8_FLAGS` replaces the service's V8 flags
 * (`--heap-growing-percent=0`: V8's own heap growth).
 *
 * @module
 */
import { freePort } from "../../tests/support/ports.ts";
import { Scope } from "../lib/scope.ts";
import { shardsRun } from "../suites/shards_run.ts";

const artifacts = await Deno.makeTempDir({ prefix: "sm-one-" });
const scope = new Scope();
const quick = Deno.args.includes("quick");
const ctx = {
  quick,
  profile: false,
  scope,
  artifacts,
  progress: (message: string) => console.error(message),
};
try {
  const run = await shardsRun(
    ctx,
    quick ? 100_000 : 1_000_000,
    quick ? 100 : 1_000,
    quick ? 1_000 : 5_000,
    {
      ...(Deno.args.includes("profile") ? { cpuProfDir: `${artifacts}/prof` } : {}),
      ...(Deno.args.includes("heap") ? { inspectPort: freePort() } : {}),
      ...(Deno.args.includes("ttl10") ? { heartbeatTtlMs: 10_000 } : {}),
    },
  );
  console.log(JSON.stringify({ ...run, heapSites: undefined }, null, 1));
  for (const site of run.heapSites?.slice(0, 40) ?? []) {
    console.log(`${(site.bytes / 2 ** 20).toFixed(1).padStart(8)} MiB  ${site.where}`);
  }
} finally {
  await scope.close();
  console.error(`artifacts: ${artifacts}`);
}
