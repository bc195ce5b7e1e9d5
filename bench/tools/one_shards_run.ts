// deno-lint-ignore-file no-console -- a diagnostic tool prints its result
/**
 * One run of the shards-per-namespace measurement, printed as JSON, with the
 * service's log kept in the artifacts directory it names at the end:
 *
 * ```sh
 * deno run -A bench/tools/one_shards_run.ts [quick] [profile]
 * ```
 *
 * @module
 */
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
    Deno.args.includes("profile") ? { cpuProfDir: `${artifacts}/prof` } : {},
  );
  console.log(JSON.stringify({ ...run, heapSites: undefined }, null, 1));
} finally {
  await scope.close();
  console.error(`artifacts: ${artifacts}`);
}
