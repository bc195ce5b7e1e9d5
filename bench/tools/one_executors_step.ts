// deno-lint-ignore-file no-console -- a diagnostic tool prints its result
/**
 * One step of the executors-per-namespace ramp, printed as JSON, with the
 * instance's log (and optionally a CPU profile) in the artifacts directory it
 * names; `grpc-js` gives the simulated executors grpc-js's client instead of
 * the lean raw one:
 *
 * ```sh
 * deno run -A bench/tools/one_executors_step.ts 20000 [profile] [grpc-js]
 * ```
 *
 * @module
 */
import { hotFunctions } from "../lib/cpu_profile.ts";
import { Scope } from "../lib/scope.ts";
import { step } from "../suites/executors_per_namespace.ts";

const executors = Number(Deno.args[0] ?? 10_000);
if (!Number.isInteger(executors) || executors < 1) {
  console.error("usage: one_executors_step.ts EXECUTORS [profile]");
  Deno.exit(2);
}
const artifacts = await Deno.makeTempDir({ prefix: "sm-one-" });
const profileDir = Deno.args.includes("profile") ? `${artifacts}/prof` : undefined;
const scope = new Scope();
try {
  const ctx = { scope, progress: (message: string) => console.error(message) };
  const logPath = `${artifacts}/service.jsonl`;
  const result = await step(ctx, executors, 10_000, 60_000, {
    logPath,
    ...(profileDir ? { cpuProfDir: profileDir } : {}),
    client: Deno.args.includes("grpc-js") ? "grpc-js" : "raw",
  });
  console.log(JSON.stringify(result, null, 1));
} finally {
  await scope.close();
  console.error(`artifacts: ${artifacts}`);
}
if (profileDir) {
  for (const entry of Deno.readDirSync(profileDir)) {
    const hot = await hotFunctions(`${profileDir}/${entry.name}`, 30);
    for (const h of hot) console.log(`${(h.share * 100).toFixed(1)}%  ${h.where}`);
  }
}
