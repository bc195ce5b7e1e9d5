/**
 * Per-process figures from Linux `/proc`: resident memory and CPU time.
 *
 * @module
 */

/** Memory of a process, bytes. */
export interface Memory {
  /** Resident set size now (`VmRSS`). */
  readonly rss: number;
  /** Peak resident set size (`VmHWM`). */
  readonly peak: number;
}

/**
 * Reads `VmRSS` and `VmHWM` of `pid`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { memoryOf } from "./proc.ts";
 *
 * assert.ok((await memoryOf(Deno.pid)).rss > 0);
 * ```
 */
export async function memoryOf(pid: number): Promise<Memory> {
  const text = await Deno.readTextFile(`/proc/${pid}/status`);
  const kib = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(text)?.[1]);
  return { rss: kib("VmRSS") * 1024, peak: kib("VmHWM") * 1024 };
}

let ticksPerSecond = 100;
try {
  const out = new Deno.Command("getconf", { args: ["CLK_TCK"], stdout: "piped", stderr: "null" })
    .outputSync();
  ticksPerSecond = Number(new TextDecoder().decode(out.stdout).trim()) || 100;
} catch { /* keep Linux's usual 100 */ }

/**
 * CPU seconds (user + system) `pid` has used so far; NaN once it is gone.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { cpuSecondsOf } from "./proc.ts";
 *
 * assert.ok(cpuSecondsOf(Deno.pid) >= 0);
 * ```
 */
export function cpuSecondsOf(pid: number): number {
  try {
    const stat = Deno.readTextFileSync(`/proc/${pid}/stat`);
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    // After the command name: state is field 3, utime 14, stime 15 (1-based in proc(5)).
    return (Number(fields[11]) + Number(fields[12])) / ticksPerSecond;
  } catch {
    return NaN;
  }
}

/**
 * Measures the CPU that `pids` use while `work` runs, as a share of one core.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { cpuShare } from "./proc.ts";
 *
 * const { result, shares } = await cpuShare([Deno.pid], () => {
 *   let sum = 0;
 *   for (let i = 0; i < 1_000_000; i++) sum += i;
 *   return Promise.resolve(sum);
 * });
 * assert.equal(result, 499_999_500_000);
 * assert.equal(shares.length, 1);
 * assert.ok(shares[0]! >= 0);
 * ```
 */
export async function cpuShare<T>(
  pids: readonly number[],
  work: () => Promise<T>,
): Promise<{ result: T; shares: number[] }> {
  const before = pids.map(cpuSecondsOf);
  const started = performance.now();
  const result = await work();
  const seconds = (performance.now() - started) / 1000;
  const shares = pids.map((pid, i) => (cpuSecondsOf(pid) - before[i]!) / seconds);
  return { result, shares };
}
