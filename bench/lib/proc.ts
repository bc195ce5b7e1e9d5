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
  return statCpuSeconds(`/proc/${pid}/stat`);
}

/**
 * CPU seconds (user + system) the main thread of `pid` has used so far: for a
 * Deno process, its JavaScript thread, apart from V8's garbage-collector
 * helpers and the runtime's other threads. NaN once it is gone.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { cpuSecondsOf, mainThreadCpuSecondsOf } from "./proc.ts";
 *
 * assert.ok(mainThreadCpuSecondsOf(Deno.pid) <= cpuSecondsOf(Deno.pid));
 * ```
 */
export function mainThreadCpuSecondsOf(pid: number): number {
  return statCpuSeconds(`/proc/${pid}/task/${pid}/stat`);
}

function statCpuSeconds(path: string): number {
  try {
    const stat = Deno.readTextFileSync(path);
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    // After the command name: state is field 3, utime 14, stime 15 (1-based in proc(5)).
    return (Number(fields[11]) + Number(fields[12])) / ticksPerSecond;
  } catch {
    return NaN;
  }
}
