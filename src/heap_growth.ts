/**
 * How far V8 lets the JavaScript heap grow past its live memory before the
 * next full collection. By default V8 picks a factor of up to 4 on a machine
 * with much memory; an instance at 1,000,000 shards, whose heartbeats allocate
 * steadily, then held three to five times its live memory (1.0–1.4 GiB
 * resident with ~200 MiB of live heap). `--heap-growing-percent=50` (a factor
 * of 1.5) kept it near 550 MiB at no cost in CPU (bench/limits.md, "Issue 17,
 * sixth step"). It bounds growth, not size: the heap may still grow as far as
 * the live memory needs, so it cannot cause an out-of-memory abort.
 *
 * V8 reads the flag only from its command line (`--v8-flags=` or the
 * `DENO_V8_FLAGS` environment variable); set at run time it is ignored. Every
 * launcher of the service passes it (`deno task start`, the Dockerfile,
 * compose.yaml, `deno task compile:service`); {@linkcode heapGrowthProblem}
 * tells a process started without it.
 *
 * @module
 */

/** The percent every launcher of the service passes to V8. */
export const HEAP_GROWING_PERCENT = 50;

/** The V8 flag, as `--v8-flags=` and `DENO_V8_FLAGS` take it. */
export const HEAP_GROWTH_V8_FLAG = `--heap-growing-percent=${HEAP_GROWING_PERCENT}`;

/** Where V8's flags come from: the process's arguments and its `DENO_V8_FLAGS`. */
export interface V8FlagSources {
  /** The process's command line, program first (`/proc/self/cmdline`). */
  readonly commandLine: readonly string[];
  /** The `DENO_V8_FLAGS` environment variable, if set. */
  readonly env?: string | undefined;
}

/**
 * The `--heap-growing-percent` V8 was started with, or undefined when none was
 * given (or it was 0, V8's own choice). `--v8-flags=` comes after
 * `DENO_V8_FLAGS`, so it wins, and the last of several wins. (The service
 * itself takes no such argument: its command line refuses unknown flags.)
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { heapGrowingPercent } from "./heap_growth.ts";
 *
 * assert.equal(heapGrowingPercent({
 *   commandLine: ["deno", "run", "--v8-flags=--heap-growing-percent=50", "src/main.ts"],
 * }), 50);
 * assert.equal(heapGrowingPercent({
 *   commandLine: ["deno", "run", "src/main.ts"],
 *   env: "--max-old-space-size=900,--heap-growing-percent=30",
 * }), 30);
 * assert.equal(heapGrowingPercent({ commandLine: ["deno", "run", "src/main.ts"] }), undefined);
 * ```
 */
export function heapGrowingPercent(sources: V8FlagSources): number | undefined {
  let percent: number | undefined;
  const take = (list: string) => {
    for (const flag of list.split(/[,\s]+/)) {
      const match = /^--heap[-_]growing[-_]percent=(\d+)$/.exec(flag);
      if (match) percent = Number(match[1]);
    }
  };
  if (sources.env !== undefined) take(sources.env);
  for (const arg of sources.commandLine) {
    if (arg.startsWith("--v8-flags=")) take(arg.slice("--v8-flags=".length));
  }
  return percent === 0 ? undefined : percent;
}

/**
 * A sentence for the log when the heap's growth is not bounded, or undefined
 * when it is (or when this process cannot tell: not Linux, or a compiled
 * binary, whose flags `deno compile` baked in).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { heapGrowthProblem } from "./heap_growth.ts";
 *
 * assert.match(
 *   heapGrowthProblem({ commandLine: ["deno", "run", "-A", "src/main.ts"] }) ?? "",
 *   /--v8-flags=--heap-growing-percent=50/,
 * );
 * assert.equal(heapGrowthProblem({ commandLine: ["deno", "run", "src/main.ts"], env: "--heap-growing-percent=50" }), undefined);
 * ```
 */
export function heapGrowthProblem(sources: V8FlagSources | undefined): string | undefined {
  if (sources === undefined || heapGrowingPercent(sources) !== undefined) return undefined;
  return "V8's heap growth is not bounded: resident memory may reach several times the live " +
    `memory. Start the service with --v8-flags=${HEAP_GROWTH_V8_FLAG} (or DENO_V8_FLAGS=` +
    `${HEAP_GROWTH_V8_FLAG}), as deno task start and the Dockerfile do (docs/limits.md, "Memory").`;
}

/**
 * This process's V8 flag sources, or undefined where they cannot be read: not
 * Linux, no read permission, or a binary built by `deno compile` (its program
 * is not `deno`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { processV8FlagSources } from "./heap_growth.ts";
 *
 * const sources = processV8FlagSources();
 * if (sources) assert.ok(sources.commandLine.length > 0);
 * ```
 */
export function processV8FlagSources(): V8FlagSources | undefined {
  if (Deno.build.os !== "linux") return undefined;
  const program = Deno.execPath().split("/").pop() ?? "";
  if (program !== "deno") return undefined;
  try {
    const raw = Deno.readTextFileSync("/proc/self/cmdline");
    const commandLine = raw.split("\0").filter((arg) => arg !== "");
    let env: string | undefined;
    try {
      env = Deno.env.get("DENO_V8_FLAGS");
    } catch { /* no --allow-env: the command line alone */ }
    return { commandLine, env };
  } catch {
    return undefined;
  }
}
