/**
 * `deno task proto:check`: `buf lint` on `proto/`, then `buf breaking` against
 * `proto/baseline.json` (the contract as last accepted here) and against each
 * image of upstream's contract in `proto/upstream/`. The breaking rules are in
 * `proto/buf.yaml`. Stops at the first failure, naming the comparison.
 *
 * @example
 * ```sh
 * deno task proto:check
 * ```
 *
 * @module
 */
import { REPO_ROOT } from "./gen_proto.ts";
import { BASELINE_PATH } from "./update_proto_baseline.ts";
import { UPSTREAM_SOURCES } from "./update_upstream_protos.ts";

/** One buf invocation of the check and what it compares. */
export interface ProtoCheckStep {
  /** What the step checks, for the log. */
  readonly what: string;
  /** Arguments of `buf`. */
  readonly args: readonly string[];
}

/**
 * The steps, in order, for the module at `protoDir` (default `proto`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { protoCheckSteps } from "./proto_check.ts";
 *
 * const steps = protoCheckSteps();
 * assert.deepEqual(steps[0]?.args, ["lint", "proto"]);
 * assert.ok(steps.some((s) => s.args.includes("proto/upstream/shard_manager.binpb")));
 * ```
 */
export function protoCheckSteps(protoDir = "proto"): ProtoCheckStep[] {
  return [
    { what: `buf lint ${protoDir}`, args: ["lint", protoDir] },
    {
      what: `no breaking change against ${BASELINE_PATH}`,
      args: ["breaking", protoDir, "--against", BASELINE_PATH],
    },
    ...UPSTREAM_SOURCES.map((s) => ({
      what: `no breaking change against upstream ${s.repository}@${s.commit.slice(0, 12)}`,
      args: ["breaking", protoDir, "--against", s.image],
    })),
  ];
}

/** Runs one step; returns buf's exit code and output. */
export async function runProtoCheckStep(
  step: ProtoCheckStep,
): Promise<{ code: number; output: string }> {
  const { code, stdout, stderr } = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "npm:@bufbuild/buf", ...step.args],
    cwd: REPO_ROOT,
    stdout: "piped",
    stderr: "piped",
  }).output();
  const decoder = new TextDecoder();
  return { code, output: decoder.decode(stdout) + decoder.decode(stderr) };
}

if (import.meta.main) {
  for (const step of protoCheckSteps()) {
    const { code, output } = await runProtoCheckStep(step);
    // deno-lint-ignore no-console -- a CLI reporting what it checked
    console.log(`${code === 0 ? "ok  " : "FAIL"} ${step.what}${output ? `\n${output}` : ""}`);
    if (code !== 0) Deno.exit(code);
  }
}
