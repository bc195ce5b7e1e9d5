/**
 * Running `deno bench --json` on a micro-benchmark file and reading its
 * results, so pure-code figures come from `deno bench` itself.
 *
 * @module
 */

/** One benchmark's result in one `deno bench` run, times in nanoseconds. */
export interface MicroResult {
  /** Benchmark name. */
  readonly name: string;
  /** Iterations measured. */
  readonly n: number;
  /** Mean time per iteration. */
  readonly avg: number;
  /** Fastest iteration. */
  readonly min: number;
  /** Slowest iteration. */
  readonly max: number;
  /** 99th percentile. */
  readonly p99: number;
}

/**
 * Runs `deno bench --json -A <file>` (optionally `--filter`) and returns each
 * benchmark's result.
 *
 * @example
 * ```ts ignore
 * import { runMicro } from "./micro.ts";
 *
 * const results = await runMicro("bench/spectator_bench.ts");
 * ```
 */
export async function runMicro(file: string, filter?: string): Promise<MicroResult[]> {
  const path = new URL(`../${file}`, import.meta.url).pathname;
  const args = ["bench", "--json", "-A", ...(filter ? ["--filter", filter] : []), path];
  const out = await new Deno.Command(Deno.execPath(), {
    args,
    stdout: "piped",
    stderr: "piped",
    env: { NO_COLOR: "1" },
  }).output();
  const text = new TextDecoder().decode(out.stdout);
  if (!out.success) {
    throw new Error(`deno bench ${file} failed:\n${new TextDecoder().decode(out.stderr)}`);
  }
  const json = JSON.parse(text.slice(text.indexOf("{"))) as {
    benches: { name: string; results: { ok?: Omit<MicroResult, "name"> }[] }[];
  };
  return json.benches.flatMap((b) => {
    const ok = b.results[0]?.ok;
    return ok
      ? [{ name: b.name, n: ok.n, avg: ok.avg, min: ok.min, max: ok.max, p99: ok.p99 }]
      : [];
  });
}

/**
 * Runs `file` `runs` times and collects, per benchmark, the mean iteration
 * time of each run (ns).
 */
export async function repeatMicro(
  file: string,
  runs: number,
  onRun?: (run: number) => void,
  filter?: string,
): Promise<Map<string, number[]>> {
  const byName = new Map<string, number[]>();
  for (let run = 0; run < runs; run++) {
    onRun?.(run);
    for (const result of await runMicro(file, filter)) {
      const list = byName.get(result.name) ?? [];
      list.push(result.avg);
      byName.set(result.name, list);
    }
  }
  return byName;
}
