/**
 * The Deno binary that tests and benchmarks run their child processes on:
 * `SM_DENO` when set (so `deno task runtime:check --deno PATH` can try a
 * release before the pin moves), else the one running the test.
 *
 * @module
 */

/** Path of the Deno binary for child processes. */
export function denoBinary(): string {
  return Deno.env.get("SM_DENO") || Deno.execPath();
}
