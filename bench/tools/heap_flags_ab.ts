// deno-lint-ignore-file no-console -- a diagnostic tool prints its result
/**
 * Heartbeat ingestion at full speed (section 7's measurement, one instance,
 * 10,000 executors, 3 rounds of 5 s against the proto-codec echo) under
 * several V8 flag sets, one after the other in the same run, so the flags'
 * cost in throughput can be told apart from the machine's noise:
 *
 * ```sh
 * deno run -A bench/tools/heap_flags_ab.ts [reps=N] "--heap-growing-percent=0" "--heap-growing-percent=50"
 * ```
 *
 * Each argument is one variant: V8 flags (words starting with `-`, passed
 * as one `--v8-flags` value) and environment variables for the service
 * (`NAME=value` words), separated by spaces, e.g.
 * `"SM_X=1 --heap-growing-percent=50"`; without arguments, V8's own heap
 * growth against the launchers' `--heap-growing-percent=50`. Prints the
 * service's rates, the echo's, the median of their ratios and each server's
 * CPU time per call (less noisy than the rates on a shared machine) for each
 * variant and repetition.
 *
 * @module
 */
import { compareWithEcho } from "../lib/echo_compare.ts";
import type { SuiteContext } from "../lib/result.ts";
import { Scope } from "../lib/scope.ts";
import { heartbeatLoad, LOADERS, startHeartbeatCluster } from "../suites/heartbeat_ingestion.ts";

const EXECUTORS = 10_000;
const repsArg = Deno.args.find((a) => a.startsWith("reps="));
const reps = repsArg ? Number(repsArg.slice(5)) : 2;
const given = Deno.args.filter((a) => !a.startsWith("reps="));
const variants = given.length > 0
  ? given
  : ["--heap-growing-percent=0", "--heap-growing-percent=50"];
const median = (xs: readonly number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;
const artifacts = await Deno.makeTempDir({ prefix: "sm-heap-ab-" });

for (let rep = 0; rep < reps; rep++) {
  for (const flags of variants) {
    const words = flags.split(/\s+/).filter((w) => w !== "");
    const env = words.filter((w) => !w.startsWith("-") && w.includes("="))
      .map((w) => [w.slice(0, w.indexOf("=")), w.slice(w.indexOf("=") + 1)] as const);
    for (const [name, value] of env) Deno.env.set(name, value);
    Deno.env.set("BENCH_SERVICE_V8_FLAGS", words.filter((w) => w.startsWith("-")).join(","));
    const scope = new Scope();
    const ctx: SuiteContext = {
      quick: false,
      profile: false,
      scope,
      artifacts,
      progress: () => {},
    };
    try {
      const cluster = await startHeartbeatCluster(scope, EXECUTORS);
      const service = cluster.services[0]!;
      const c = await compareWithEcho(ctx, {
        address: service.address,
        pid: service.pid,
        loaders: LOADERS,
        load: (address, target, i) => heartbeatLoad(address, target, EXECUTORS, i),
        rounds: 3,
        durationMs: 5_000,
        warmMs: 15_000,
      });
      const ratios = c.service.map((s, i) => s.rate / c.proto[i]!.rate);
      console.log(
        `${flags} (rep ${rep + 1}): service ${c.service.map((s) => Math.round(s.rate))}/s, ` +
          `echo ${c.proto.map((s) => Math.round(s.rate))}/s, ratio median ${
            median(ratios).toFixed(3)
          }, service CPU µs per call ${
            c.service.map((s) => Math.round(s.serverCores * 1e6 / s.rate))
          }, echo ${c.proto.map((s) => Math.round(s.serverCores * 1e6 / s.rate))}`,
      );
    } finally {
      for (const [name] of env) Deno.env.delete(name);
      await scope.close();
    }
  }
}
