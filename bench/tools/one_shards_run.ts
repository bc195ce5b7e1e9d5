import { Scope } from "../lib/scope.ts";
import { shardsRun } from "../suites/shards_run.ts";
const artifacts = await Deno.makeTempDir({ prefix: "sm-one-" });
const scope = new Scope();
const quick = Deno.args[0] === "quick";
const ctx = { quick, profile: false, scope, artifacts, progress: (m: string) => console.error(m) };
try {
  const r = await shardsRun(
    ctx,
    quick ? 100_000 : 1_000_000,
    quick ? 100 : 1000,
    quick ? 1000 : 5000,
    Deno.args.includes("profile") ? { cpuProfDir: `${artifacts}/prof` } : {},
  );
  console.log(JSON.stringify({ ...r, heapSites: undefined }, null, 1));
} finally {
  await scope.close();
  console.error("artifacts", artifacts);
}
