/**
 * The machine and versions a run used, for the report.
 *
 * @module
 */

/** Where the figures come from. */
export interface Machine {
  /** CPU model name. */
  readonly cpu: string;
  /** Logical cores. */
  readonly cores: number;
  /** Memory, GiB. */
  readonly memoryGiB: number;
  /** Kernel release. */
  readonly kernel: string;
  /** Deno, V8 and TypeScript versions. */
  readonly deno: string;
  /** etcd version. */
  readonly etcd: string;
  /** When (ISO date). */
  readonly date: string;
}

async function firstLine(cmd: string, args: string[]): Promise<string> {
  try {
    const out = await new Deno.Command(cmd, { args, stdout: "piped", stderr: "null" }).output();
    return new TextDecoder().decode(out.stdout).split("\n")[0]!.trim();
  } catch {
    return "unknown";
  }
}

/**
 * Describes this machine.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { describeMachine } from "./machine.ts";
 *
 * const machine = await describeMachine();
 * assert.equal(machine.cores, navigator.hardwareConcurrency);
 * assert.ok(machine.deno.startsWith(Deno.version.deno));
 * ```
 */
export async function describeMachine(): Promise<Machine> {
  const cpuinfo = await Deno.readTextFile("/proc/cpuinfo").catch(() => "");
  const meminfo = await Deno.readTextFile("/proc/meminfo").catch(() => "");
  const kib = Number(/^MemTotal:\s+(\d+)/m.exec(meminfo)?.[1] ?? NaN);
  const etcd = (await firstLine(Deno.env.get("ETCD_BIN") ?? "etcd", ["--version"]))
    .replace(/^etcd Version:\s*/, "");
  return {
    cpu: /^model name\s*:\s*(.+)$/m.exec(cpuinfo)?.[1]?.trim() ?? "unknown",
    cores: navigator.hardwareConcurrency,
    memoryGiB: Math.round(kib / 1024 / 1024),
    kernel: Deno.osRelease(),
    deno: `${Deno.version.deno} (V8 ${Deno.version.v8}, TypeScript ${Deno.version.typescript})`,
    etcd,
    date: new Date().toISOString(),
  };
}

/**
 * The code measured: `git rev-parse --short HEAD`, with "+ uncommitted src/
 * changes" when the working tree's `src/` differs from it (read-only git).
 */
export async function sourceVersion(): Promise<string> {
  const root = new URL("../..", import.meta.url).pathname;
  const git = async (...args: string[]) => {
    try {
      const out = await new Deno.Command("git", {
        args,
        cwd: root,
        stdout: "piped",
        stderr: "null",
      })
        .output();
      return out.success ? new TextDecoder().decode(out.stdout).trim() : undefined;
    } catch {
      return undefined;
    }
  };
  const head = await git("rev-parse", "--short", "HEAD");
  if (head === undefined) return "unknown";
  const dirty = await git("status", "--porcelain", "--", "src");
  return dirty ? `${head} + uncommitted src/ changes` : head;
}

/** The 1-minute load average (NaN when unknown). */
export function loadAverage(): number {
  try {
    return Number(Deno.readTextFileSync("/proc/loadavg").split(" ")[0]);
  } catch {
    return NaN;
  }
}
