/**
 * Rewrites `proto/baseline.json`, the image of the wire contract that
 * `deno task proto:check` compares `proto/` against with `buf breaking`.
 *
 * Run it only to accept a contract change on purpose (a new field, message or
 * RPC; never a renumbering). The image is pretty-printed so a review of the
 * baseline's diff shows what was accepted.
 *
 * @example Accept the current contract
 * ```sh
 * deno run --allow-all scripts/update_proto_baseline.ts
 * ```
 *
 * @module
 */
import { REPO_ROOT } from "./gen_proto.ts";

/** Where the baseline lives, relative to the repository root. */
export const BASELINE_PATH = "proto/baseline.json";

/** Builds the contract's image with buf and writes it, pretty-printed. */
export async function updateProtoBaseline(): Promise<void> {
  const scratch = await Deno.makeTempFile({ suffix: ".json" });
  try {
    const { code, stderr } = await new Deno.Command(Deno.execPath(), {
      // Source info (line numbers, comments) is left out: buf breaking does
      // not need it, and comment edits should not churn the baseline.
      args: [
        "run",
        "-A",
        "npm:@bufbuild/buf",
        "build",
        "proto",
        "--exclude-source-info",
        "-o",
        scratch,
      ],
      cwd: REPO_ROOT,
      stdout: "inherit",
      stderr: "piped",
    }).output();
    if (code !== 0) {
      throw new Error(`buf build exited with code ${code}:\n${new TextDecoder().decode(stderr)}`);
    }
    const image: unknown = JSON.parse(await Deno.readTextFile(scratch));
    await Deno.writeTextFile(
      new URL(BASELINE_PATH, REPO_ROOT),
      `${JSON.stringify(image, null, 2)}\n`,
    );
  } finally {
    await Deno.remove(scratch);
  }
}

if (import.meta.main) {
  await updateProtoBaseline();
  // deno-lint-ignore no-console -- a CLI reporting what it did
  console.log(`Wrote ${BASELINE_PATH}`);
}
