/**
 * Resource samples of a running process, read from Linux's `/proc`: its
 * resident memory and its open file descriptors (sockets, files, pipes,
 * timers' eventfds: the handles a leak leaves behind).
 *
 * @module
 */

/** One process's resources at one moment. */
export interface ProcessSample {
  /** Resident set size, in bytes. */
  readonly rssBytes: number;
  /** Entries in `/proc/<pid>/fd`. */
  readonly fds: number;
}

/**
 * Samples process `pid`, or returns `undefined` when it is gone (or `/proc`
 * is not there: not Linux).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { sampleProcess } from "./process_stats.ts";
 *
 * const me = await sampleProcess(Deno.pid);
 * assert.ok(me === undefined || (me.rssBytes > 0 && me.fds > 0));
 * ```
 */
export async function sampleProcess(pid: number): Promise<ProcessSample | undefined> {
  try {
    const status = await Deno.readTextFile(`/proc/${pid}/status`);
    const rss = /^VmRSS:\s+(\d+)\s+kB$/m.exec(status);
    let fds = 0;
    for await (const _ of Deno.readDir(`/proc/${pid}/fd`)) fds++;
    return { rssBytes: rss ? Number(rss[1]) * 1024 : 0, fds };
  } catch {
    return undefined; // exited between the listing and the read, or no /proc
  }
}
