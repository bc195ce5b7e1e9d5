/**
 * Which command-line tools a test needs and this machine lacks, so that a
 * test can skip (saying why) where they are missing, and fail under CI.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { missingTools } from "./tools.ts";
 *
 * assert.deepEqual(missingTools(["no-such-tool-here"]), ["no-such-tool-here"]);
 * ```
 *
 * @module
 */

/** Whether `name --version` runs and succeeds. */
function hasTool(name: string): boolean {
  try {
    return new Deno.Command(name, { args: ["--version"], stdout: "null", stderr: "null" })
      .outputSync().success;
  } catch {
    return false;
  }
}

/** The tools of `names` that cannot be run here, in order. */
export function missingTools(names: readonly string[]): string[] {
  return names.filter((name) => !hasTool(name));
}
